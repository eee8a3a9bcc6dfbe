import AsyncHTTPClient
import Convoy
import Foundation
import NIOCore
import NIOSSL

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ways of fetching the same URL that the peer benchmark compares, each in the form an
/// application would use: one `await` per request, and Convoy's completion-handler form.
enum PeerClient: String, CaseIterable, Sendable {
  /// `URLSession.data(from:)`, awaited: what Foundation offers with no framework around it.
  case rawURLSession = "raw URLSession"
  /// `HTTPClient.execute(_:timeout:)`, awaited, body collected into a `ByteBuffer`.
  case asyncHTTPClient = "AHC"
  /// `ServerConnection.execute` on `CurlTransport`.
  case convoyOnCurl = "Convoy on curl"
  /// `ServerConnection.execute` on `URLSessionTransport`.
  case convoyOnURLSession = "Convoy on URLSession"
  /// `ServerConnection.execute(_:completion:)` on `CurlTransport`: the completion-handler form,
  /// a one-request job, awaited through a continuation as an app bridging it would.
  case convoyOnCurlWithCompletion = "Convoy on curl, completion"
  /// `ServerConnection.run` of a group job of as many calls as the cell keeps in flight, on
  /// `CurlTransport`, awaited; the next job starts when the whole group is done.
  case convoyOnCurlAsJobs = "Convoy on curl, jobs"
  /// As many awaited `execute` calls on `CurlTransport` as the cell keeps in flight, in a task
  /// group, the next group starting when the whole group is done: the jobs' shape without a
  /// job, which tells what waiting for a group's slowest call costs from what a job costs.
  case convoyOnCurlInLockStep = "Convoy on curl, lock-step"

  /// The name used on the command line of a memory child.
  var argument: String {
    switch self {
    case .rawURLSession: "urlsession"
    case .asyncHTTPClient: "ahc"
    case .convoyOnCurl: "convoy-curl"
    case .convoyOnURLSession: "convoy-urlsession"
    case .convoyOnCurlWithCompletion: "convoy-curl-completion"
    case .convoyOnCurlAsJobs: "convoy-curl-jobs"
    case .convoyOnCurlInLockStep: "convoy-curl-lock-step"
    }
  }

  init?(argument: String) {
    guard let client = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
    self = client
  }

  /// Whether the client runs on FoundationNetworking, which on Linux trusts only the system's
  /// certificate authorities (see ``PeerServer``).
  var usesURLSession: Bool { self == .rawURLSession || self == .convoyOnURLSession }

  /// How the client's requests are awaited: one by one, or a whole group at a time.
  var form: ConvoyFetcher.Form {
    switch self {
    case .convoyOnCurlWithCompletion: .completionHandler
    case .convoyOnCurlAsJobs: .groupJob
    case .convoyOnCurlInLockStep: .lockStep
    default: .async
    }
  }

  /// A fetcher for `server`, or `nil` when this client cannot run here (no libcurl).
  ///
  /// - Parameter concurrency: How many requests the caller keeps in flight; Convoy's connection
  ///   is allowed as many, since its default limit (6) would keep some of them waiting on its
  ///   queue while the other clients send them all.
  func makeFetcher(server: PeerServer, concurrency: Int) -> (any PeerFetcher)? {
    switch self {
    case .rawURLSession:
      return RawURLSessionFetcher()
    case .asyncHTTPClient:
      return AsyncHTTPClientFetcher(authorityFile: server.authorityFile)
    case .convoyOnURLSession:
      return ConvoyFetcher(
        server: server, transport: URLSessionTransport(), concurrency: concurrency)
    case .convoyOnCurl, .convoyOnCurlWithCompletion, .convoyOnCurlAsJobs,
      .convoyOnCurlInLockStep:
      #if os(Linux)
        do {
          let transport =
            try server.authorityFile.map {
              try CurlTransport(tls: Convoy.TLSConfiguration(trustedCertificates: [.file($0)]))
            } ?? CurlTransport()
          return ConvoyFetcher(
            server: server, transport: transport, concurrency: concurrency, form: form)
        } catch {
          print("\(rawValue): cannot run here, \(error)")
          return nil
        }
      #else
        return nil
      #endif
    }
  }
}

/// One of nginx's ports, as the clients reach it.
///
/// AHC (NIOSSL `trustRoots`) and Convoy on curl (`TLSConfiguration`) trust the run's own
/// authority. FoundationNetworking on Linux cannot be told to: its libcurl always sets its
/// compiled-in bundle, so `SSL_CERT_FILE` is never read, and server trust cannot be decided in a
/// `URLSession` delegate there. The URLSession clients' HTTPS cells therefore run only where the
/// authority is trusted system-wide (see `PEER_BENCH_TLS_DIR`), and are skipped otherwise.
struct PeerServer: Sendable {
  let port: Int
  /// The run's authority when the port speaks TLS, `nil` for plain HTTP.
  let authorityFile: URL?

  var isTLS: Bool { authorityFile != nil }
  var baseURL: URL { URL(string: "\(isTLS ? "https" : "http")://127.0.0.1:\(port)")! }
  /// How the cells name what runs on the connection.
  var protocolName: String { isTLS ? "HTTPS h2" : "HTTP/1.1" }
}

/// What one fetch of `/protocol` showed.
struct ProtocolReport: Sendable {
  /// The version the client itself reported (`HTTPResponse.httpVersion`, AHC's
  /// `HTTPClientResponse.version`); `nil` when it does not say (URLSession).
  var clientSays: String?
  /// nginx's `$server_protocol $connection $ssl_protocol`, or `nil` when the fetch failed.
  var serverSays: String?
  /// Why the fetch failed, when it did.
  var failure: String?

  /// The server's protocol, `HTTP/2.0` say.
  var serverProtocol: String? { field(0) }
  /// The TLS version nginx negotiated (`TLSv1.3`), `nil` for plain HTTP.
  var tlsVersion: String? { field(2) }

  private func field(_ index: Int) -> String? {
    guard let fields = serverSays?.split(separator: " "), fields.count > index else { return nil }
    return String(fields[index])
  }
}

/// Fetches one file and says whether a 200 with a non-empty body came back.
protocol PeerFetcher: Sendable {
  func fetch(path: String, url: URL) async -> Bool
  /// Fetches `/protocol` once on the same client (the same connections).
  func probe(url: URL) async -> ProtocolReport
  /// Releases what the client holds (AHC must be shut down before it is dropped).
  func shutdown() async
  /// Fetches the file `count` times at once and says how many came back whole; `nil` for a
  /// client that fetches one request at a time only.
  func fetchGroup(_ count: Int, path: String, url: URL) async -> Int?
}

extension PeerFetcher {
  func fetchGroup(_ count: Int, path: String, url: URL) async -> Int? { nil }
}

private final class RawURLSessionFetcher: PeerFetcher {
  private let session = URLSession(configuration: .default)

  func fetch(path: String, url: URL) async -> Bool {
    guard let (data, response) = try? await session.data(from: url) else { return false }
    return (response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty
  }

  func probe(url: URL) async -> ProtocolReport {
    do {
      let (data, _) = try await session.data(from: url)
      return ProtocolReport(serverSays: String(decoding: data, as: UTF8.self))
    } catch {
      return ProtocolReport(failure: "\(error.localizedDescription) (\((error as NSError).code))")
    }
  }

  func shutdown() async {
    session.finishTasksAndInvalidate()
  }
}

/// AHC as its README sets it up: the shared `EventLoopGroup` (one loop per core), default
/// configuration (up to 8 HTTP/1.1 connections per host, HTTP/2 where TLS offers it); over
/// HTTPS, NIOSSL's client defaults with the run's authority as the trust roots.
private final class AsyncHTTPClientFetcher: PeerFetcher {
  private let client: HTTPClient

  init(authorityFile: URL?) {
    var configuration = HTTPClient.Configuration()
    if let authorityFile {
      var tls = NIOSSL.TLSConfiguration.makeClientConfiguration()
      tls.trustRoots = .file(authorityFile.path)
      configuration.tlsConfiguration = tls
    }
    client = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  }

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

  func probe(url: URL) async -> ProtocolReport {
    do {
      let response = try await client.execute(
        HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
      let body = try await response.body.collect(upTo: 1 << 16)
      return ProtocolReport(
        clientSays: "\(response.version)", serverSays: String(buffer: body))
    } catch {
      return ProtocolReport(failure: "\(error)")
    }
  }

  func shutdown() async {
    try? await client.shutdown()
  }
}

final class ConvoyFetcher: PeerFetcher {
  /// How an application awaits Convoy's calls.
  enum Form {
    /// `execute`, awaited.
    case async
    /// `execute(_:completion:)`, bridged with a continuation.
    case completionHandler
    /// `run` of a `GroupOperation` of calls, awaited: see ``fetchGroup(_:path:url:)``.
    case groupJob
    /// A task group of awaited calls, the same shape as ``groupJob`` without the job.
    case lockStep
  }

  private let connection: ServerConnection
  private let form: Form

  init(server: PeerServer, transport: any HTTPTransport, concurrency: Int, form: Form = .async) {
    connection = ServerConnection(
      configuration: ServerConfiguration(environment: .local, baseURL: server.baseURL),
      transport: transport, networkConcurrencyLimit: max(concurrency, 1))
    self.form = form
  }

  func fetch(path: String, url: URL) async -> Bool {
    switch form {
    case .async, .groupJob, .lockStep:
      guard let response = try? await connection.execute(StaticFile(path: path)) else {
        return false
      }
      return !response.data.isEmpty
    case .completionHandler:
      return await withCheckedContinuation { continuation in
        _ = connection.execute(StaticFile(path: path)) { result in
          continuation.resume(returning: (try? result.get())?.data.isEmpty == false)
        }
      }
    }
  }

  func fetchGroup(_ count: Int, path: String, url: URL) async -> Int? {
    let connection = self.connection
    if form == .lockStep {
      return await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<count {
          group.addTask { await self.fetch(path: path, url: url) }
        }
        return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
      }
    }
    guard form == .groupJob else { return nil }
    let group = GroupOperation(
      (0..<count).map { _ in connection.operation(for: StaticFile(path: path)) })
    guard let answers = try? await connection.run(group) else { return 0 }
    return answers.filter { !$0.data.isEmpty }.count
  }

  func probe(url: URL) async -> ProtocolReport {
    do {
      let answer = try await connection.execute(StaticFile(path: url.path))
      return ProtocolReport(
        clientSays: answer.response.httpVersion,
        serverSays: String(decoding: answer.data, as: UTF8.self))
    } catch {
      return ProtocolReport(failure: "\(error)")
    }
  }

  func shutdown() async {}
}

/// `GET` of a file nginx serves; the body is returned as it came.
private struct StaticFile: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  let path: String
}
