import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A server that misbehaves on purpose (resets, early closes, short bodies, garbage or odd status
/// lines, bad headers, framing and chunks, trailers, stalls, ranges that ignore `If-Range`), made
/// of `MockServer` routes in this process and shared by the tests that need one.
///
/// Every request's `key` query parameter is counted, so a test can ask how often the client
/// tried (``hits(key:)``). Each answer closes its connection, as a broken server's would.
final class FaultServer: Sendable {
  /// The server every test shares; it listens on 127.0.0.1 until the process ends.
  static let shared = FaultServer()

  let mock: MockServer

  /// The misbehaviours the server offers, by path.
  enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Reads the request, then resets the connection (TCP RST).
    case resetBeforeHead = "/reset-before-head"
    /// Reads the request, then closes the connection cleanly without answering.
    case closeBeforeHead = "/close-before-head"
    /// A head announcing 1,000 bytes, 100 of them, then a reset.
    case resetDuringBody = "/reset-during-body"
    /// A head announcing 1,000 bytes, 100 of them, then a clean close.
    case shortBody = "/short-body"
    /// A first line that is not an HTTP status line.
    case garbageStatus = "/garbage-status"
    /// A valid status line followed by a header line with no colon.
    case invalidHeader = "/invalid-header"
    /// A chunked body whose chunk size is not hexadecimal.
    case invalidChunked = "/invalid-chunked"
    /// A head announcing 1,000 bytes, 100 of them, then silence until the client gives up.
    case stallDuringBody = "/stall-during-body"
    /// Reads the request, then sends nothing until the client gives up: only a deadline or a
    /// cancellation ends a call to it, so a test of either needs no clock.
    case neverAnswers = "/never-answers"
    /// `Http/1.1 200 OK`: the protocol name in the wrong case, so not HTTP.
    case lowercaseProtocol = "/lowercase-protocol"
    /// `HTTP/1.1 200` with no reason phrase: valid HTTP.
    case noReasonPhrase = "/no-reason-phrase"
    /// `Content-Length: 10, 4` over a four-byte body: invalid framing.
    case conflictingContentLength = "/conflicting-content-length"
    /// A chunked `hello` followed by a trailer field. Never through `URLSessionTransport` on
    /// Linux: FoundationNetworking kills the process on it.
    case chunkedTrailers = "/chunked-trailers"
    /// A 200 whose body never ends (up to 512 MiB, or until the client stops reading), for
    /// limits on buffered bodies.
    case endlessBody = "/endless-body"
    /// A 200 whose head has 5,000 fields, for limits on heads.
    case manyHeaders = "/many-headers"

    var description: String { String(rawValue.dropFirst()) }

    /// What the server sends for this fault.
    var answer: MockAnswer {
      let partial = MockAnswer.data(Data(repeating: UInt8(ascii: "x"), count: 1000))
      switch self {
      case .resetBeforeHead: return MockAnswer.text("never").with(fault: .resetBeforeHead)
      case .closeBeforeHead: return MockAnswer.text("never").with(fault: .hangUpBeforeHead)
      case .resetDuringBody: return partial.with(fault: .resetAfterBodyBytes(100))
      case .shortBody: return partial.with(fault: .hangUpAfterBodyBytes(100))
      case .garbageStatus:
        return MockAnswer(body: .bytes(Data("ok".utf8)), head: .garbageStatusLine)
      case .invalidHeader:
        return MockAnswer(body: .bytes(Data("ok".utf8)), head: .headerWithoutColon)
      case .invalidChunked:
        return MockAnswer(
          body: .bytes(Data("zz\r\nhello\r\n0\r\n\r\n".utf8)),
          head: .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"))
      case .stallDuringBody:
        return partial.with(fault: .stall(afterBodyBytes: 100, for: .seconds(3600)))
      case .neverAnswers:
        var silent = MockAnswer.text("too late")
        silent.headDelay = .seconds(3600)
        return silent
      case .lowercaseProtocol:
        return MockAnswer(body: .bytes(Data("ok".utf8)), head: .wrongCaseProtocolName)
      case .noReasonPhrase:
        return MockAnswer(body: .bytes(Data("ok".utf8)), head: .noReasonPhrase)
      case .conflictingContentLength:
        // `Content-Length: 10, 4` over the four bytes.
        return MockAnswer(body: .bytes(Data("abcd".utf8)), head: .conflictingContentLength)
      case .chunkedTrailers:
        return MockAnswer(
          body: .chunks([MockChunk("hel"), MockChunk("lo")]), trailers: ["X-Checksum": "5d41402a"])
      case .endlessBody:
        let piece = Data(repeating: UInt8(ascii: "x"), count: 65_536)
        let pieces = AsyncStream<Data>(unfolding: { piece }).prefix(8_192)
        return MockAnswer(body: .stream(pieces))
      case .manyHeaders:
        var headers = HTTPHeaders()
        for field in 0..<5_000 { headers.add(name: "X-Field-\(field)", value: String(field)) }
        return MockAnswer(headers: headers, body: .bytes(Data("ok".utf8)))
      }
    }
  }

  private init() {
    mock = MockServer()
    do {
      try mock.startListening()
    } catch {
      fatalError("the fault server could not listen on loopback: \(error)")
    }
    for fault in Fault.allCases {
      var answer = fault.answer
      answer.closesConnection = true
      mock.route(fault.rawValue, answer: answer)
    }
    var ok = MockAnswer.text("ok")
    ok.closesConnection = true
    mock.route("/ok", answer: ok)
    mock.route("/range-ignoring-if-range") { request in
      var answer = FaultServer.rangeIgnoringIfRange(request)
      answer.closesConnection = true
      return answer
    }
    let barrier = TogetherBarrier()
    mock.route("/together") { request in
      let count = Int(request.queryValue("count") ?? "") ?? 2
      let together = await barrier.arrive(key: request.queryValue("key") ?? "", count: count)
      var answer = together ? MockAnswer.text("together") : .text("alone", status: 504)
      answer.closesConnection = true
      return answer
    }
  }

  /// `/range-ignoring-if-range?version=N[&cut=M]`: a 1,000-byte resource whose every byte is
  /// `"a" + N % 26`, with `ETag: "vN"` and a `Last-Modified` N days after 2020-01-01, answering
  /// `Range` with 206 whatever `If-Range` says, as a careless server does. Without `Range` the
  /// whole body comes (200), cut short after M bytes when `cut` is given.
  private static func rangeIgnoringIfRange(_ request: RecordedRequest) -> MockAnswer {
    let version = Int(request.queryValue("version") ?? "") ?? 0
    let body = Data(repeating: UInt8(ascii: "a") + UInt8(version % 26), count: 1000)
    let modified = Date(timeIntervalSince1970: 1_577_836_800 + Double(version) * 86_400)
    let answer = MockAnswer.ranged(
      body, for: request, etag: "\"v\(version)\"", lastModified: httpDate(modified),
      honoursIfRange: false)
    if request.headers["Range"] == nil, let cut = Int(request.queryValue("cut") ?? ""),
      cut > 0, cut < 1000
    {
      return answer.with(fault: .hangUpAfterBodyBytes(cut))
    }
    return answer
  }

  /// `date` as an HTTP date (IMF-fixdate).
  private static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  /// The port the server listens on.
  var port: Int { mock.port }

  /// The URL for `path` (which may contain a query) on this server.
  func url(_ path: String) -> URL { mock.url(for: path) }

  /// Waits until the server has received a request carrying `key`: the call is in flight.
  func waitForRequest(key: String) async throws {
    try await mock.waitForRequest { $0.queryValue("key") == key }
  }

  /// How many requests carrying `key` the server received (retries included).
  func hits(key: String) -> Int {
    mock.requests.filter { $0.queryValue("key") == key }.count
  }

  /// A call to one of the server's misbehaviours, with a `key` to find it by.
  struct FaultCall: RequestDescribing {
    typealias Response = DataResponse
    var fault: Fault
    var key = UUID().uuidString
    var method: HTTPMethod = .get
    var body: RequestBody?
    var timeout: TimeInterval?

    var path: String { fault.rawValue }
    var queryItems: [URLQueryItem] { [URLQueryItem(name: "key", value: key)] }
    /// The path with its query, for a test that sends the call by hand.
    var target: String { "\(fault.rawValue)?key=\(key)" }
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

/// Holds `/together` requests until `count` with the same key are held at once.
///
/// Once a key's count is met, the key stays met: a late request is answered alone at once
/// rather than reopening the key while the others may still be answering.
private actor TogetherBarrier {
  private var held: [String: [UUID: CheckedContinuation<Bool, Never>]] = [:]
  private var met: Set<String> = []

  func arrive(key: String, count: Int) async -> Bool {
    if met.contains(key) { return false }
    let id = UUID()
    return await withCheckedContinuation { continuation in
      held[key, default: [:]][id] = continuation
      if held[key, default: [:]].count >= count {
        met.insert(key)
        for waiting in (held.removeValue(forKey: key) ?? [:]).values {
          waiting.resume(returning: true)
        }
      } else {
        Task { await self.giveUp(key: key, id: id) }
      }
    }
  }

  /// After ten seconds a request still held is answered alone.
  private func giveUp(key: String, id: UUID) async {
    try? await Task.sleep(for: .seconds(10))
    guard let continuation = held[key]?.removeValue(forKey: id) else { return }
    if held[key]?.isEmpty == true { held[key] = nil }
    continuation.resume(returning: false)
  }
}
