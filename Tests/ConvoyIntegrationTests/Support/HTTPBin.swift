import Foundation

/// A real httpbin on a free loopback port, started once per test process and stopped at exit.
///
/// Two servers run, on 127.0.0.1 and 127.0.0.2, so tests can cross hosts.
final class HTTPBin: Sendable {
  let host: String
  let port: Int
  private let process: Process

  /// The server on 127.0.0.1.
  static let shared: HTTPBin = start(host: "127.0.0.1")
  /// A second server on another loopback host, for cross-host redirects.
  static let other: HTTPBin = start(host: "127.0.0.2")

  var baseURL: URL { URL(string: "http://\(host):\(port)")! }

  private init(host: String, port: Int, process: Process) {
    self.host = host
    self.port = port
    self.process = process
  }

  private static func start(host: String) -> HTTPBin {
    let (process, port) = PythonServer.start(script: "httpbin_server.py", host: host)
    return HTTPBin(host: host, port: port, process: process)
  }

  /// The URL for `path` (which may contain a query) on this server.
  func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + path)!
  }
}
