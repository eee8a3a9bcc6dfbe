import Foundation

/// `scripts/proxy_server.py`: two proxy.py HTTP proxies on loopback, one open and one requiring
/// Basic credentials (``user``, ``password``), started once per test process and stopped at exit.
final class ProxyServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The proxies on 127.0.0.1.
  static let shared = ProxyServer()

  /// The credentials the authenticating proxy accepts.
  static let user = "convoy"
  static let password = "proxy-secret"

  private init() {
    server = LoopbackServerProcess.start(script: "proxy_server.py", arguments: ["127.0.0.1"])
  }

  /// The proxy that requires credentials.
  var authenticatingPort: Int {
    server.details.first { $0.hasPrefix("auth=") }.flatMap { Int($0.dropFirst(5)) } ?? 0
  }
}
