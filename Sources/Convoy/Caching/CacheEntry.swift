import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One stored response and what RFC 9111 needs to judge it later.
struct CacheEntry: Sendable {
  /// Method and URL without fragment (RFC 9111 §4.1 keys on the target URI).
  var key: String
  var url: URL
  var statusCode: Int
  var headers: HTTPHeaders
  var body: Data
  /// When the request that produced this response (or its last revalidation) was sent and
  /// answered: `request_time` and `response_time` of RFC 9111 §4.2.3.
  var requestDate: Date
  var responseDate: Date
  /// The values the request had for each header the response's `Vary` names, lower-cased name
  /// to value (`nil` when absent), for RFC 9111 §4.1 matching.
  var varyingRequestHeaders: [String: String?]

  static func key(method: HTTPMethod, url: URL) -> String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    components?.fragment = nil
    return method.rawValue + " " + (components?.url?.absoluteString ?? url.absoluteString)
  }

  /// A rough byte cost for memory accounting: body, header text and bookkeeping.
  var cost: Int {
    body.count + key.utf8.count
      + headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + 256
  }

  var cacheControl: CacheControl { CacheControl(headers) }

  /// Whether `request` may be answered with this entry (RFC 9111 §4.1): every header named by
  /// `Vary` has the value it had when the entry was stored.
  func matchesVary(of request: URLRequest) -> Bool {
    varyingRequestHeaders.allSatisfy { name, value in
      Self.normalized(request.value(forHTTPHeaderField: name)) == value
    }
  }

  /// The values `request` has for the headers a response's `Vary` names; `nil` for `Vary: *`,
  /// which never matches a later request (RFC 9111 §4.1) and so is not worth storing.
  static func varyingHeaders(of request: URLRequest, vary: [String]) -> [String: String?]? {
    let names = vary.flatMap { HeaderValueSyntax.split(Substring($0), separator: ",") }
    var values: [String: String?] = [:]
    for name in names {
      if name == "*" { return nil }
      values[name.lowercased()] = .some(normalized(request.value(forHTTPHeaderField: String(name))))
    }
    return values
  }

  /// Whitespace between list items does not change a header's meaning (RFC 9111 §4.1).
  private static func normalized(_ value: String?) -> String? {
    value.map { HeaderValueSyntax.split(Substring($0), separator: ",").joined(separator: ",") }
  }

  /// The stored answer as a transport response for `url`, with `Age` set as RFC 9111 §5.1
  /// requires of a cache that serves a stored response.
  func transportResponse(age: TimeInterval, metrics: TransferMetrics) -> TransportResponse {
    var headers = headers
    // RFC 9111 §1.2.2: an age past 2^31 is sent as 2^31 (and NaN, which `max` turns to 0,
    // never reaches `Int`).
    headers["Age"] = String(Int(min(max(0, age), 2_147_483_648)))
    return TransportResponse(
      head: HTTPResponse(statusCode: statusCode, url: url, headers: headers), data: body,
      metrics: metrics)
  }
}
