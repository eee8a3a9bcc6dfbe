import Foundation

/// `scripts/proxy_server.py`: two proxy.py HTTP proxies on loopback, one open and one requiring
/// Basic credentials (``user``, ``password``), and a SOCKS5 proxy requiring the same, started once
/// per test process and stopped at exit.
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

  /// The HTTP proxy that requires credentials.
  var authenticatingPort: Int { port(named: "auth") }
  /// The SOCKS5 proxy, which requires the same credentials.
  var socksPort: Int { port(named: "socks") }

  private func port(named name: String) -> Int {
    server.details.first { $0.hasPrefix(name + "=") }
      .flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
  }
}
