import Convoy
import Foundation

/// What a ``MockServer`` sends for one request: a status, headers and a body, with optional
/// informational heads, trailers, pacing and a fault.
///
/// ```swift
/// var answer = MockAnswer.text("hello")
/// answer.fault = .hangUpAfterBodyBytes(2)   // the client sees "he", then the connection close
/// ```
///
/// The server frames the body itself: `Content-Length` for bytes and files, chunked for chunks,
/// streams and answers with trailers, unless the headers already name a framing (which is then
/// sent as given, right or wrong, so a test can script a lie).
public struct MockAnswer: Sendable {
  /// The status code of the final head.
  public var status: Int
  /// The reason phrase; `nil` sends the standard one for the status.
  public var reason: String?
  /// The header fields of the final head, in order.
  public var headers: HTTPHeaders
  /// The body.
  public var body: MockBody
  /// Trailer fields, sent after a chunked body (a body with trailers is always chunked).
  public var trailers: HTTPHeaders
  /// Informational (1xx) heads sent before the final one, e.g. `103 Early Hints`.
  public var informational: [MockInformationalHead]
  /// How the head itself is written; ``MockHead/standard`` unless the test wants it broken.
  public var head: MockHead
  /// A failure to act out instead of finishing the answer normally.
  public var fault: MockFault?
  /// How long to wait before sending the head.
  public var headDelay: Duration
  /// How long to wait between the head and the first body byte.
  public var bodyDelay: Duration
  /// At most this many body bytes per period, e.g. `MockThrottle(bytes: 1024, per: .seconds(1))`.
  public var throttle: MockThrottle?
  /// Whether the server closes the connection after this answer (and says so with
  /// `Connection: close`); by default it is kept alive for the next request.
  public var closesConnection: Bool
  /// Whether the answer goes out as soon as the request's head is read, before its body, as a
  /// server that refuses a request by its head does (a `413` for a too-large
  /// `Content-Length`, a `401`): a client that asked `Expect: 100-continue` gets this answer
  /// instead of `100 Continue` and need not send the body. The body is not read; the
  /// connection closes after the answer.
  public var answersBeforeBody = false
  /// Set for an answer that accepts a WebSocket upgrade (``webSocket(subprotocol:compression:headers:_:)``):
  /// the `101` and the script that follows it.
  public var webSocket: MockWebSocketAnswer?

  /// Creates an answer; every part but the status has a default.
  public init(
    status: Int = 200, reason: String? = nil, headers: HTTPHeaders = [:], body: MockBody = .empty,
    trailers: HTTPHeaders = [:], informational: [MockInformationalHead] = [],
    head: MockHead = .standard, fault: MockFault? = nil, headDelay: Duration = .zero,
    bodyDelay: Duration = .zero, throttle: MockThrottle? = nil, closesConnection: Bool = false
  ) {
    self.status = status
    self.reason = reason
    self.headers = headers
    self.body = body
    self.trailers = trailers
    self.informational = informational
    self.head = head
    self.fault = fault
    self.headDelay = headDelay
    self.bodyDelay = bodyDelay
    self.throttle = throttle
    self.closesConnection = closesConnection
  }

  /// An answer with a status and no body.
  public static func status(_ status: Int, headers: HTTPHeaders = [:]) -> MockAnswer {
    MockAnswer(status: status, headers: headers)
  }

  /// A `text/plain; charset=utf-8` answer.
  public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = [:])
    -> MockAnswer
  {
    MockAnswer(
      status: status, headers: headers.adding(contentType: "text/plain; charset=utf-8"),
      body: .bytes(Data(text.utf8)))
  }

  /// An `application/json` answer encoded from `value` (keys sorted, so bodies compare).
  public static func json<Value: Encodable>(
    _ value: Value, status: Int = 200, headers: HTTPHeaders = [:]
  ) -> MockAnswer {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return MockAnswer(
      status: status, headers: headers.adding(contentType: "application/json"),
      body: .bytes((try? encoder.encode(value)) ?? Data()))
  }

  /// An answer whose body is `data`.
  public static func data(_ data: Data, status: Int = 200, headers: HTTPHeaders = [:])
    -> MockAnswer
  {
    MockAnswer(status: status, headers: headers, body: .bytes(data))
  }

  /// This answer with `fault` acted out.
  public func with(fault: MockFault) -> MockAnswer {
    var copy = self
    copy.fault = fault
    return copy
  }
}

/// A head with a 1xx status that a ``MockServer`` sends before the final answer.
public struct MockInformationalHead: Sendable {
  /// The status, from 100 to 199.
  public var status: Int
  /// Its header fields, e.g. `Link` for `103 Early Hints`.
  public var headers: HTTPHeaders

  /// Creates an informational head.
  public init(status: Int, headers: HTTPHeaders = [:]) {
    self.status = status
    self.headers = headers
  }
}

/// A pace for a body: at most `bytes` every `period`.
public struct MockThrottle: Sendable {
  /// How many body bytes may go in one period.
  public var bytes: Int
  /// The length of a period.
  public var period: Duration

  /// At most `bytes` every `period`, e.g. `MockThrottle(bytes: 100, per: .milliseconds(100))`.
  public init(bytes: Int, per period: Duration) {
    self.bytes = max(1, bytes)
    self.period = period
  }
}

extension HTTPHeaders {
  /// These headers with `Content-Type: value` unless they name one.
  fileprivate func adding(contentType value: String) -> HTTPHeaders {
    var headers = self
    if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: value) }
    return headers
  }
}
