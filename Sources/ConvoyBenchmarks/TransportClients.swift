import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ways of fetching the same URL that the transport benchmark compares.
enum TransportClient: String, CaseIterable {
  case rawURLSession = "raw URLSession"
  case convoyOnURLSession = "Convoy on URLSession"
  case convoyOnCurl = "Convoy on curl"
  /// CurlTransport driven directly, below Convoy's pipeline: shows what the pipeline costs.
  case curlTransportAlone = "CurlTransport alone"
  /// The same, awaited from a task: shows what the hop back to the task's thread costs.
  case curlTransportAwaited = "CurlTransport awaited"
  /// libcurl driven directly from one thread, as a C program would: the ceiling for anything
  /// built on the same libcurl.
  case rawLibcurl = "raw libcurl"

  /// A fetcher bound to `port`, or `nil` when the client cannot run here (no libcurl).
  func makeFetcher(port: Int) -> Fetcher? {
    switch self {
    case .rawURLSession:
      return .callback(RawURLSessionFetcher().fetch)
    case .convoyOnURLSession:
      return .async(ConvoyFetcher(port: port, transport: URLSessionTransport()).fetch)
    case .convoyOnCurl, .curlTransportAlone, .curlTransportAwaited, .rawLibcurl:
      #if os(Linux)
        return makeCurlFetcher(port: port)
      #else
        return nil
      #endif
    }
  }
}

#if os(Linux)
  extension TransportClient {
    /// The clients that need libcurl, or `nil` when it cannot be loaded.
    fileprivate func makeCurlFetcher(port: Int) -> Fetcher? {
      if self == .rawLibcurl {
        guard let loop = RawLibcurlLoop() else { return nil }
        return .loop { url, inFlight, budget in
          loop.run(url: url, inFlight: inFlight, budget: budget)
        }
      }
      guard let transport = try? CurlTransport() else { return nil }
      switch self {
      case .convoyOnCurl:
        return .async(ConvoyFetcher(port: port, transport: transport).fetch)
      case .curlTransportAlone:
        return .callback(TransportFetcher(transport: transport).fetch)
      case .curlTransportAwaited:
        let fetcher = TransportFetcher(transport: transport)
        return .async { path, url in
          await withCheckedContinuation { continuation in
            fetcher.fetch(path: path, url: url) { continuation.resume(returning: $0) }
          }
        }
      default:
        return nil
      }
    }
  }
#endif

/// Fetches one path and reports whether a 200 with a body came back.
enum Fetcher {
  /// Calls back when done, on any thread.
  case callback(@Sendable (String, URL, @escaping @Sendable (Bool) -> Void) -> Void)
  /// Returns when done.
  case async(@Sendable (String, URL) async -> Bool)
  /// Runs the whole cell itself on the calling thread: keeps the given number of requests in
  /// flight until the budget is spent.
  case loop(@Sendable (URL, Int, RequestBudget) -> Void)
}

private final class RawURLSessionFetcher: Sendable {
  private let session = URLSession(configuration: .default)

  func fetch(path: String, url: URL, done: @escaping @Sendable (Bool) -> Void) {
    session.dataTask(with: url) { data, response, error in
      done(
        error == nil && (response as? HTTPURLResponse)?.statusCode == 200 && data?.isEmpty == false)
    }.resume()
  }
}

private final class TransportFetcher: Sendable {
  private let transport: any HTTPTransport

  init(transport: any HTTPTransport) {
    self.transport = transport
  }

  func fetch(path: String, url: URL, done: @escaping @Sendable (Bool) -> Void) {
    _ = transport.startTransfer(TransportRequest(urlRequest: URLRequest(url: url))) { result in
      if case .success(let response) = result {
        done(response.statusCode == 200 && !response.data.isEmpty)
      } else {
        done(false)
      }
    }
  }
}

private final class ConvoyFetcher: Sendable {
  private let connection: ServerConnection

  init(port: Int, transport: any HTTPTransport) {
    // The default limit (6) would keep two of the "8 in flight" requests waiting on the queue,
    // which the raw clients never do.
    connection = ServerConnection(
      configuration: .local(port: port), transport: transport, networkConcurrencyLimit: 8)
  }

  func fetch(path: String, url: URL) async -> Bool {
    guard let response = try? await connection.execute(StaticFile(path: path)) else { return false }
    return !response.data.isEmpty
  }
}

private struct StaticFile: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  let path: String
}
