import Foundation

/// `scripts/tls_server.py`: httpbin over TLS on hypercorn (HTTP/2 and HTTP/1.1), with
/// certificates made at start by trustme, started once per test process and stopped at exit.
///
/// Four servers share one certificate signed by a CA no system trusts (``caFile``): the main one,
/// one requiring a client certificate (``mutualTLSPort``), one capped at TLS 1.2
/// (``tls12Port``) and one speaking HTTP/1.1 only (``http1Port``).
final class TLSServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The servers on 127.0.0.1.
  static let shared = TLSServer()

  private let settings: [String: String]

  private init() {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-tls-\(UUID().uuidString)")
    server = LoopbackServerProcess.start(
      script: "tls_server.py", arguments: ["127.0.0.1", directory.path],
      removingAtExit: [directory])
    settings = Dictionary(
      server.details.compactMap { detail in
        detail.firstIndex(of: "=").map {
          (String(detail[..<$0]), String(detail[detail.index(after: $0)...]))
        }
      }, uniquingKeysWith: { first, _ in first })
  }

  private var directory: URL { URL(fileURLWithPath: settings["dir"] ?? "/nonexistent") }

  /// The CA that signed every server's certificate.
  var caFile: URL { directory.appendingPathComponent("ca.pem") }
  /// A client certificate and key the mutual-TLS server accepts.
  var clientCertificateFile: URL { directory.appendingPathComponent("client.pem") }
  var clientKeyFile: URL { directory.appendingPathComponent("client-key.pem") }
  /// A client certificate and key signed by a CA the mutual-TLS server does not trust.
  var strangerCertificateFile: URL { directory.appendingPathComponent("other-client.pem") }
  var strangerKeyFile: URL { directory.appendingPathComponent("other-client-key.pem") }
  /// The base64 SHA-256 of the servers' public key.
  var pin: String { settings["pin"] ?? "" }
  /// The server that requires a client certificate.
  var mutualTLSPort: Int { Int(settings["mtls"] ?? "") ?? 0 }
  /// The server that speaks TLS 1.2 at most.
  var tls12Port: Int { Int(settings["tls12"] ?? "") ?? 0 }
  /// The server that offers HTTP/1.1 only.
  var http1Port: Int { Int(settings["h1"] ?? "") ?? 0 }

  /// `https://127.0.0.1:port`.
  func secureURL(_ path: String, port: Int? = nil) -> URL {
    URL(string: "https://\(host):\(port ?? self.port)\(path)")!
  }
}
