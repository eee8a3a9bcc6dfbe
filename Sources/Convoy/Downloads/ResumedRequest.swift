import Foundation

/// A request sent again for the rest of a body: the same request with `Range` and `If-Range`
/// added, so the server sends only the missing bytes, and only if the file did not change.
struct ResumedRequest<Base: RequestDescribing>: RequestDescribing {
  typealias Response = Base.Response

  let base: Base
  let offset: Int64
  let validator: String

  var method: HTTPMethod { base.method }
  var path: String { base.path }
  var queryItems: [URLQueryItem] { base.queryItems }
  var headers: HTTPHeaders {
    var headers = base.headers
    headers["Range"] = "bytes=\(offset)-"
    headers["If-Range"] = validator
    return headers
  }
  var body: RequestBody? { base.body }
  var authenticationRequirement: AuthenticationRequirement { base.authenticationRequirement }
  var acceptableStatusCodes: Range<Int> { base.acceptableStatusCodes }
  var timeout: TimeInterval? { base.timeout }
  var decoder: JSONDecoder? { base.decoder }
  var allowsRetry: Bool { base.allowsRetry }
  var retryPolicy: RetryPolicy? { base.retryPolicy }
  var adapters: [any RequestAdapter] { base.adapters }
  var decisions: [any ResponseDecision]? { base.decisions }
  var cachePolicy: CachePolicy { base.cachePolicy }
}
