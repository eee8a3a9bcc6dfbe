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

  /// Whether the client runs on FoundationNetworking, which on Linux trusts only the system's
  /// certificate authorities (see ``BenchmarkServer``).
  var usesURLSession: Bool { self == .rawURLSession || self == .convoyOnURLSession }

  /// A client bound to `server`, or `nil` when it cannot run here (no libcurl).
  func makeClient(for server: BenchmarkServer) -> BenchmarkClient? {
    switch self {
    case .rawURLSession:
      let fetcher = RawURLSessionFetcher()
      return BenchmarkClient(fetcher: .callback(fetcher.fetch), probe: fetcher.probe)
    case .convoyOnURLSession:
      let fetcher = ConvoyFetcher(server: server, transport: URLSessionTransport())
      return BenchmarkClient(fetcher: .async(fetcher.fetch), probe: fetcher.probe)
    case .convoyOnCurl, .curlTransportAlone, .curlTransportAwaited, .rawLibcurl:
      #if os(Linux)
        return makeCurlClient(for: server)
      #else
        return nil
      #endif
    }
  }
}

/// One of nginx's ports, as the clients reach it.
///
/// Only the libcurl clients can be told to trust the run's own authority. FoundationNetworking
/// on Linux has no way to: its libcurl always sets its compiled-in bundle
/// (`/etc/ssl/certs/ca-certificates.crt`, and `/etc/ssl/certs`), so `SSL_CERT_FILE` and
/// `SSL_CERT_DIR` are never read (measured with libcurl 7.88.1), and server trust cannot be
/// decided in a `URLSession` delegate there. The URLSession clients' HTTPS cells therefore run
/// only where the authority is trusted system-wide (see `CONVOY_BENCH_TLS_DIR`); otherwise they
/// are skipped with that reason.
struct BenchmarkServer: Sendable {
  let port: Int
  /// The run's authority when the port speaks TLS, `nil` for plain HTTP.
  let authorityFile: URL?
  /// Whether the server closes every connection after one request.
  let isCold: Bool

  var isTLS: Bool { authorityFile != nil }
  var baseURL: URL { URL(string: "\(isTLS ? "https" : "http")://127.0.0.1:\(port)")! }
  /// How the cells name what runs on the connection.
  var protocolName: String { isTLS ? "HTTPS h2" : "HTTP/1.1" }
}

/// A fetcher and a way to ask the same client which protocol it spoke.
struct BenchmarkClient {
  let fetcher: Fetcher
  /// Fetches `/protocol` once with the same client (the same connections).
  let probe: @Sendable (URL) -> ProtocolReport
}

/// What one fetch of `/protocol` showed.
struct ProtocolReport: Sendable {
  /// The version the client itself reported (`HTTPResponse.httpVersion`,
  /// `CURLINFO_HTTP_VERSION`); `nil` when it does not say (URLSession).
  var clientSays: String?
  /// nginx's `$server_protocol $connection $ssl_protocol`, or `nil` when the fetch failed.
  var serverSays: String?
  /// Why the fetch failed, when it did.
  var failure: String?

  /// The server's protocol, `HTTP/2.0` say.
  var serverProtocol: String? { field(0) }
  /// nginx's connection serial number: different for every new connection.
  var connection: String? { field(1) }
  /// The TLS version nginx negotiated (`TLSv1.3`), `nil` for plain HTTP.
  var tlsVersion: String? { field(2) }

  private func field(_ index: Int) -> String? {
    guard let fields = serverSays?.split(separator: " "), fields.count > index else { return nil }
    return String(fields[index])
  }
}

#if os(Linux)
  extension TransportClient {
    /// The clients that need libcurl, or `nil` when it cannot be loaded.
    fileprivate func makeCurlClient(for server: BenchmarkServer) -> BenchmarkClient? {
      if self == .rawLibcurl {
        guard let loop = RawLibcurlLoop(authorityFile: server.authorityFile) else { return nil }
        return BenchmarkClient(
          fetcher: .loop { url, inFlight, budget in
            loop.run(url: url, inFlight: inFlight, budget: budget)
          }, probe: loop.probe)
      }
      let transport: CurlTransport
      do {
        if let authority = server.authorityFile {
          transport = try CurlTransport(
            tls: TLSConfiguration(trustedCertificates: [.file(authority)]))
        } else {
          transport = try CurlTransport()
        }
      } catch {
        print("\(rawValue): cannot run here, \(error)")
        return nil
      }
      switch self {
      case .convoyOnCurl:
        let fetcher = ConvoyFetcher(server: server, transport: transport)
        return BenchmarkClient(fetcher: .async(fetcher.fetch), probe: fetcher.probe)
      case .curlTransportAlone:
        let fetcher = TransportFetcher(transport: transport)
        return BenchmarkClient(fetcher: .callback(fetcher.fetch), probe: fetcher.probe)
      case .curlTransportAwaited:
        let fetcher = TransportFetcher(transport: transport)
        return BenchmarkClient(fetcher: .async(fetcher.send), probe: fetcher.probe)
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

/// Waits for `body` from synchronous code: the benchmark's main thread is not in a task.
func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
  let result = Locked<Value?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let value = await body()
    result.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return result.withLock { $0! }
}

private final class RawURLSessionFetcher: Sendable {
  private let session = URLSession(configuration: .default)

  func fetch(path: String, url: URL, done: @escaping @Sendable (Bool) -> Void) {
    session.dataTask(with: url) { data, response, error in
      done(
        error == nil && (response as? HTTPURLResponse)?.statusCode == 200 && data?.isEmpty == false)
    }.resume()
  }

  func probe(url: URL) -> ProtocolReport {
    waitFor { [session] in
      do {
        let (data, _) = try await session.data(from: url)
        return ProtocolReport(serverSays: String(decoding: data, as: UTF8.self))
      } catch {
        return ProtocolReport(failure: "\(error.localizedDescription) (\((error as NSError).code))")
      }
    }
  }
}

#if os(Linux)
  private final class TransportFetcher: Sendable {
    private let transport: CurlTransport

    init(transport: CurlTransport) {
      self.transport = transport
    }

    /// The transport beneath its seam: the completion runs on the transport's thread.
    func fetch(path: String, url: URL, done: @escaping @Sendable (Bool) -> Void) {
      _ = transport.startTransfer(TransportRequest(urlRequest: URLRequest(url: url))) { result in
        if case .success(let response) = result {
          done(response.statusCode == 200 && !response.data.isEmpty)
        } else {
          done(false)
        }
      }
    }

    /// The transport's seam, awaited from a task.
    func send(path: String, url: URL) async -> Bool {
      let request = TransportRequest(urlRequest: URLRequest(url: url))
      let response = try? await transport.send(request).collected(within: request.responseLimits)
      return response.map { $0.statusCode == 200 && !$0.data.isEmpty } ?? false
    }

    func probe(url: URL) -> ProtocolReport {
      let report = Locked(ProtocolReport())
      let done = DispatchSemaphore(value: 0)
      Task { [transport] in
        let request = TransportRequest(urlRequest: URLRequest(url: url))
        let result: Result<TransportResponse, TransportFailure>
        do throws(TransportFailure) {
          result = .success(
            try await transport.send(request).collected(within: request.responseLimits))
        } catch {
          result = .failure(error)
        }
        switch result {
        case .success(let response):
          report.withLock {
            $0 = ProtocolReport(
              clientSays: response.head.httpVersion,
              serverSays: String(decoding: response.data, as: UTF8.self))
          }
        case .failure(let failure):
          report.withLock { $0.failure = "\(failure)" }
        }
        done.signal()
      }
      done.wait()
      return report.current
    }
  }
#endif

private final class ConvoyFetcher: Sendable {
  private let connection: ServerConnection

  init(server: BenchmarkServer, transport: any HTTPTransport) {
    // The default limit (6) would keep two of the "8 in flight" requests waiting on the queue,
    // which the raw clients never do.
    connection = ServerConnection(
      configuration: ServerConfiguration(environment: .local, baseURL: server.baseURL),
      transport: transport, networkConcurrencyLimit: 8)
  }

  func fetch(path: String, url: URL) async -> Bool {
    guard let response = try? await connection.execute(StaticFile(path: path)) else { return false }
    return !response.data.isEmpty
  }

  func probe(url: URL) -> ProtocolReport {
    waitFor { [connection] in
      do {
        let answer = try await connection.execute(StaticFile(path: url.path))
        return ProtocolReport(
          clientSays: answer.response.httpVersion,
          serverSays: String(decoding: answer.data, as: UTF8.self))
      } catch {
        return ProtocolReport(failure: "\(error)")
      }
    }
  }
}

private struct StaticFile: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  let path: String
}
