import Foundation

/// A test server on loopback: where it listens and how to build URLs for it.
protocol LoopbackServer: Sendable {
  /// The running server process.
  var server: LoopbackServerProcess { get }
}

extension LoopbackServer {
  /// The address the server listens on.
  var host: String { server.host }
  /// The port the server listens on.
  var port: Int { server.port }
  /// `http://host:port`.
  var baseURL: URL { URL(string: "http://\(host):\(port)")! }

  /// The URL for `path` (which may contain a query) on this server.
  func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + path)!
  }
}
