import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The head of a server's answer: its status, URL and header fields.
///
/// Convoy has its own type rather than handing out `HTTPURLResponse` for two reasons. On Linux,
/// FoundationNetworking's `HTTPURLResponse` initializer re-cases and compares every header name,
/// which costs more CPU than anything else Convoy does for a small call on the libcurl transport;
/// and its `allHeaderFields` is case-sensitive there, while ``headers`` is not and keeps
/// repeated fields apart.
///
/// ``httpURLResponse`` is still there for code that wants Foundation's type: it is built on first
/// use, once, and never for callers that only read ``statusCode``, ``url`` and ``headers``.
///
/// ```swift
/// let answer = try await connection.execute(PlacesRequest())
/// let etag = answer.response.headers["etag"]  // whatever case the server used
/// ```
public struct HTTPResponse: Sendable {
  /// The status code, such as `200` or `404`.
  public let statusCode: Int
  /// The URL that answered: after redirects, the last one.
  public let url: URL?
  /// The header fields, looked up case-insensitively, repeated fields kept apart.
  public let headers: HTTPHeaders

  /// The protocol the answer came in, as its status line names it: `"HTTP/2"`, `"HTTP/1.1"`.
  ///
  /// `nil` when the transport cannot tell: `URLSession` does not report it (`HTTPURLResponse`
  /// keeps it private). ``CurlTransport`` always sets it, so an app can see that HTTP/2 was
  /// negotiated.
  public let httpVersion: String?
  /// Where the call's time went, up to this answer: its attempts, redirects, wait for a slot and
  /// transfers (see ``CallMetrics``). Set on the answers a ``ServerConnection`` hands back; `nil`
  /// on a head straight from a transport.
  public internal(set) var metrics: CallMetrics?
  /// Shared by every copy, so a response built for one copy serves them all.
  private let foundationResponse: Locked<HTTPURLResponse?>

  /// Creates a response head from its parts, without building an `HTTPURLResponse`.
  ///
  /// - Parameters:
  ///   - statusCode: The status code.
  ///   - url: The URL that answered.
  ///   - headers: The header fields, repeated fields as separate fields.
  ///   - httpVersion: The protocol of the answer (`"HTTP/2"`), when the transport knows it.
  public init(statusCode: Int, url: URL?, headers: HTTPHeaders, httpVersion: String? = nil) {
    self.statusCode = statusCode
    self.url = url
    self.headers = headers
    self.httpVersion = httpVersion
    self.foundationResponse = Locked(nil)
  }

  /// Creates a response head from Foundation's, keeping that very instance as
  /// ``httpURLResponse`` so that it is never built a second time.
  public init(_ httpURLResponse: HTTPURLResponse) {
    self.init(httpURLResponse, headers: HTTPHeaders(httpURLResponse))
  }

  /// Keeps `httpURLResponse` but takes `headers` from a transport that, unlike
  /// `HTTPURLResponse`, kept repeated fields apart.
  init(_ httpURLResponse: HTTPURLResponse, headers: HTTPHeaders) {
    statusCode = httpURLResponse.statusCode
    url = httpURLResponse.url
    self.headers = headers
    httpVersion = nil
    foundationResponse = Locked(httpURLResponse)
  }

  /// The same answer as Foundation's type, built on first access and then reused.
  ///
  /// Repeated header fields are joined with `", "` (RFC 9110 §5.3), as `HTTPURLResponse` holds
  /// one value per name. A head without a URL gets `about:blank`, since `HTTPURLResponse`
  /// requires one.
  public var httpURLResponse: HTTPURLResponse {
    foundationResponse.withLock { cached in
      if let cached { return cached }
      let built = makeHTTPURLResponse()
      cached = built
      return built
    }
  }

  /// Whether ``httpURLResponse`` exists yet; lets tests check that it is built only on demand.
  var isHTTPURLResponseBuilt: Bool {
    foundationResponse.current != nil
  }

  private func makeHTTPURLResponse() -> HTTPURLResponse {
    guard
      let response = HTTPURLResponse(
        url: url ?? Self.placeholderURL, statusCode: statusCode,
        httpVersion: httpVersion ?? "HTTP/1.1",
        headerFields: headers.dictionary)
    else {
      // FoundationNetworking never fails here; Apple's documents a failure it does not describe.
      preconditionFailure("HTTPURLResponse refused status \(statusCode)")
    }
    return response
  }

  private static let placeholderURL = URL(string: "about:blank")!
}
