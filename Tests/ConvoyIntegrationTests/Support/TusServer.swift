import Foundation

/// `scripts/tus_server.py`: tuspyserver's tus 1.0.0 routes under `/files`, started once per test
/// process and stopped at exit.
final class TusServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The server on 127.0.0.1.
  static let shared = TusServer()

  private init() {
    server = LoopbackServerProcess.start(script: "tus_server.py", arguments: ["127.0.0.1"])
  }

  /// Where the server writes the uploads, each under the last segment of its address.
  var filesDirectory: URL { URL(fileURLWithPath: server.details.first ?? "/nonexistent") }
}
