import Foundation

/// A real httpbin on a free loopback port, started once per test process and stopped at exit.
///
/// Two servers run, on 127.0.0.1 and 127.0.0.2, so tests can cross hosts.
final class HTTPBin: LoopbackServer {
  let server: LoopbackServerProcess

  /// The server on 127.0.0.1.
  static let shared = HTTPBin(host: "127.0.0.1")
  /// A second server on another loopback host, for cross-host redirects.
  static let other = HTTPBin(host: "127.0.0.2")

  private init(host: String) {
    server = LoopbackServerProcess.start(script: "httpbin_server.py", arguments: [host])
  }
}
