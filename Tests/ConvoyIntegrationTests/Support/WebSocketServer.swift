import Foundation

/// `scripts/websocket_server.py`: the `websockets` package serving echo, close, header and
/// refusal endpoints, plain and over TLS with a trustme certificate, started once per test
/// process and stopped at exit.
final class WebSocketServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The servers on 127.0.0.1.
  static let shared = WebSocketServer()

  private init() {
    server = LoopbackServerProcess.start(script: "websocket_server.py", arguments: ["127.0.0.1"])
  }

  /// The port of the TLS listener.
  var securePort: Int { Int(server.details.first ?? "") ?? 0 }
  /// The CA that signed the TLS listener's certificate.
  var caFile: URL { URL(fileURLWithPath: server.details.dropFirst().first ?? "/nonexistent") }
}
