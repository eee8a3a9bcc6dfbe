import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `scripts/fault_server.py` on a free loopback port: a server that misbehaves on purpose (resets,
/// early closes, short bodies, garbage status lines, bad headers and chunks, stalls), started
/// once per test process and stopped at exit.
final class FaultServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The server on 127.0.0.1.
  static let shared = FaultServer()

  /// The misbehaviours the server offers, by path.
  enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
    case resetBeforeHead = "/reset-before-head"
    case closeBeforeHead = "/close-before-head"
    case resetDuringBody = "/reset-during-body"
    case shortBody = "/short-body"
    case garbageStatus = "/garbage-status"
    case invalidHeader = "/invalid-header"
    case invalidChunked = "/invalid-chunked"
    case stallDuringBody = "/stall-during-body"
    case endlessBody = "/endless-body"
    case manyHeaders = "/many-headers"

    var description: String { String(rawValue.dropFirst()) }
  }

  private init() {
    server = LoopbackServerProcess.start(script: "fault_server.py", arguments: ["127.0.0.1"])
  }

  /// How many requests carrying `key` the server received (retries included).
  func hits(key: String) async throws -> Int {
    let (data, _) = try await URLSession.shared.data(from: url("/hits?key=\(key)"))
    return Int(String(decoding: data, as: UTF8.self)) ?? -1
  }

  /// `/together`: answered 200 only once `count` requests with `key` are held at once (504 after
  /// 10 s), so a test proves calls ran side by side without a clock.
  struct TogetherCall: RequestDescribing {
    typealias Response = DataResponse
    var key: String
    var count: Int
    var method: HTTPMethod { .get }
    var path: String { "together" }
    var queryItems: [URLQueryItem] {
      [URLQueryItem(name: "key", value: key), URLQueryItem(name: "count", value: String(count))]
    }
    // The 504 of a call left alone is a result the test reads, not an error.
    var acceptableStatusCodes: Range<Int> { 200..<600 }
  }
}
