import Convoy
import Foundation

/// A request sent as it is, with one adapter more: the trace propagation of its span.
struct TracedRequest<Base: RequestDescribing>: RequestDescribing {
  typealias Response = Base.Response

  let base: Base
  let propagation: any RequestAdapter

  var method: HTTPMethod { base.method }
  var path: String { base.path }
  var queryItems: [URLQueryItem] { base.queryItems }
  var headers: HTTPHeaders { base.headers }
  var body: RequestBody? { base.body }
  var authenticationRequirement: AuthenticationRequirement { base.authenticationRequirement }
  var acceptableStatusCodes: Range<Int> { base.acceptableStatusCodes }
  var timeout: TimeInterval? { base.timeout }
  var decoder: JSONDecoder? { base.decoder }
  var allowsRetry: Bool { base.allowsRetry }
  var retryPolicy: RetryPolicy? { base.retryPolicy }
  var responseLimits: ResponseLimits? { base.responseLimits }
  var adapters: [any RequestAdapter] { base.adapters + [propagation] }
  var decisions: [any ResponseDecision]? { base.decisions }
  var cachePolicy: CachePolicy { base.cachePolicy }
}
