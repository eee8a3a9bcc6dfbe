import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `scripts/fault_server.py` on a free loopback port: a server that misbehaves on purpose (resets,
/// early closes, short bodies, garbage or odd status lines, bad headers, framing and chunks,
/// trailers, stalls, ranges that ignore `If-Range`), started
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
    /// `Http/1.1 200 OK`: the protocol name in the wrong case, so not HTTP.
    case lowercaseProtocol = "/lowercase-protocol"
    /// `HTTP/1.1 200` with no reason phrase: valid HTTP.
    case noReasonPhrase = "/no-reason-phrase"
    /// `Content-Length: 10, 4` over a four-byte body: invalid framing.
    case conflictingContentLength = "/conflicting-content-length"
    /// A chunked `hello` followed by a trailer field. Never through `URLSessionTransport` on
    /// Linux: FoundationNetworking kills the process on it.
    case chunkedTrailers = "/chunked-trailers"

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
