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

#if os(Linux)
  import Convoy

  extension WebSocketServer {
    /// `http://` or, `secure`, `https://` on the TLS listener: what a connection's base URL is
    /// for `ws` and `wss`.
    func base(secure: Bool) -> URL {
      URL(string: secure ? "https://\(host):\(securePort)/" : "http://\(host):\(port)/")!
    }

    /// A connection to the server with a 300 s timeout, over `transport`, or else over a
    /// `CurlTransport` that trusts the server's CA.
    func connection(secure: Bool = false, transport: (any HTTPTransport)? = nil) throws
      -> ServerConnection
    {
      var configuration = ServerConfiguration(environment: .local, baseURL: base(secure: secure))
      configuration.timeout = 300
      let curl = try CurlTransport(tls: TLSConfiguration(trustedCertificates: [.file(caFile)]))
      return ServerConnection(configuration: configuration, transport: transport ?? curl)
    }
  }
#endif
