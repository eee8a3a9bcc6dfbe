import Foundation

/// A request sent with header fields added to its own, for what Convoy asks of the server on
/// the request's behalf: `Range` and `If-Range` when a download resumes, `Accept` and
/// `Last-Event-ID` when an event stream reconnects, `Idempotency-Key` when a durable job sends a
/// step. Everything else is the request's.
struct RequestWithExtraHeaders<Base: RequestDescribing>: RequestDescribing {
  typealias Response = Base.Response

  let base: Base
  /// Set on top of the request's own fields, replacing any of the same name.
  let extraHeaders: HTTPHeaders
  /// Whether the call may be sent again whatever its method: the extra fields make a second
  /// sending harmless (an `Idempotency-Key`).
  var allowsRetryAnyway = false

  var method: HTTPMethod { base.method }
  var path: String { base.path }
  var queryItems: [URLQueryItem] { base.queryItems }
  var headers: HTTPHeaders {
    var headers = base.headers
    for field in extraHeaders.fields { headers[field.name] = field.value }
    return headers
  }
  var body: RequestBody? { base.body }
  var authenticationRequirement: AuthenticationRequirement { base.authenticationRequirement }
  var acceptableStatusCodes: Range<Int> { base.acceptableStatusCodes }
  var timeout: TimeInterval? { base.timeout }
  var decoder: JSONDecoder? { base.decoder }
  var allowsRetry: Bool { allowsRetryAnyway || base.allowsRetry }
  var retryPolicy: RetryPolicy? { base.retryPolicy }
  var waitsForConnectivity: Bool? { base.waitsForConnectivity }
  var responseLimits: ResponseLimits? { base.responseLimits }
  var adapters: [any RequestAdapter] { base.adapters }
  var decisions: [any ResponseDecision]? { base.decisions }
  var cachePolicy: CachePolicy { base.cachePolicy }
}
