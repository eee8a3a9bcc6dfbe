import Foundation

/// `scripts/idempotency_server.py`: FastAPI applying numbered jobs once per `Idempotency-Key`,
/// and saying how often each key was applied; started once per test process, stopped at exit.
final class IdempotencyServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The server on 127.0.0.1.
  static let shared = IdempotencyServer()

  private init() {
    server = LoopbackServerProcess.start(script: "idempotency_server.py", arguments: ["127.0.0.1"])
  }

  /// One key the server applied.
  struct Application: Decodable, Hashable {
    let key: String
    let number: Int
    let applications: Int
    let replays: Int
  }

  /// Every key applied so far, in order.
  func applied() throws -> [Application] {
    try JSONDecoder().decode([Application].self, from: Data(contentsOf: url("/applied")))
  }
}
