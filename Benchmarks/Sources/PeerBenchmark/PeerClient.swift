import AsyncHTTPClient
import Convoy
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The four ways of fetching the same URL that the peer benchmark compares, each in the form an
/// application would use: one `await` per request.
enum PeerClient: String, CaseIterable, Sendable {
  /// `URLSession.data(from:)`, awaited: what Foundation offers with no framework around it.
  case rawURLSession = "raw URLSession"
  /// `HTTPClient.execute(_:timeout:)`, awaited, body collected into a `ByteBuffer`.
  case asyncHTTPClient = "AHC"
  /// `ServerConnection.execute` on `CurlTransport`.
  case convoyOnCurl = "Convoy on curl"
  /// `ServerConnection.execute` on `URLSessionTransport`.
  case convoyOnURLSession = "Convoy on URLSession"

  /// The name used on the command line of a memory child.
  var argument: String {
    switch self {
    case .rawURLSession: "urlsession"
    case .asyncHTTPClient: "ahc"
    case .convoyOnCurl: "convoy-curl"
    case .convoyOnURLSession: "convoy-urlsession"
    }
  }

  init?(argument: String) {
    guard let client = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
    self = client
  }

  /// A fetcher for the nginx on `port`, or `nil` when this client cannot run here (no libcurl).
  ///
  /// - Parameter concurrency: How many requests the caller keeps in flight; Convoy's connection
  ///   is allowed as many, since its default limit (6) would keep some of them waiting on its
  ///   queue while the other clients send them all.
  func makeFetcher(port: Int, concurrency: Int) -> (any PeerFetcher)? {
    switch self {
    case .rawURLSession:
      return RawURLSessionFetcher()
    case .asyncHTTPClient:
      return AsyncHTTPClientFetcher()
    case .convoyOnURLSession:
      return ConvoyFetcher(port: port, transport: URLSessionTransport(), concurrency: concurrency)
    case .convoyOnCurl:
      #if os(Linux)
        guard let transport = try? CurlTransport() else { return nil }
        return ConvoyFetcher(port: port, transport: transport, concurrency: concurrency)
      #else
        return nil
      #endif
    }
  }
}

/// Fetches one file and says whether a 200 with a non-empty body came back.
protocol PeerFetcher: Sendable {
  func fetch(path: String, url: URL) async -> Bool
  /// Releases what the client holds (AHC must be shut down before it is dropped).
  func shutdown() async
}

private final class RawURLSessionFetcher: PeerFetcher {
  private let session = URLSession(configuration: .default)

  func fetch(path: String, url: URL) async -> Bool {
    guard let (data, response) = try? await session.data(from: url) else { return false }
    return (response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty
  }

  func shutdown() async {
    session.finishTasksAndInvalidate()
  }
}

/// AHC as its README sets it up: the shared `EventLoopGroup` (one loop per core), default
/// configuration (up to 8 HTTP/1.1 connections per host, HTTP/2 where TLS offers it).
private final class AsyncHTTPClientFetcher: PeerFetcher {
  private let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)

  func fetch(path: String, url: URL) async -> Bool {
    let request = HTTPClientRequest(url: url.absoluteString)
    do {
      let response = try await client.execute(request, timeout: .seconds(30))
      let body = try await response.body.collect(upTo: 1 << 20)
      return response.status == .ok && body.readableBytes > 0
    } catch {
      return false
    }
  }

  func shutdown() async {
    try? await client.shutdown()
  }
}

private final class ConvoyFetcher: PeerFetcher {
  private let connection: ServerConnection

  init(port: Int, transport: any HTTPTransport, concurrency: Int) {
    connection = ServerConnection(
      configuration: .local(port: port), transport: transport,
      networkConcurrencyLimit: max(concurrency, 1))
  }

  func fetch(path: String, url: URL) async -> Bool {
    guard let response = try? await connection.execute(StaticFile(path: path)) else { return false }
    return !response.data.isEmpty
  }

  func shutdown() async {}
}

/// `GET` of a file nginx serves; the body is returned as it came.
private struct StaticFile: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  let path: String
}
