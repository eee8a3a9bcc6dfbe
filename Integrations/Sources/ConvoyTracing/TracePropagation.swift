import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The adapter a call traced on its own (`execute(_:tracer:)`) adds to its request: at every
/// attempt it sets the fields of its span's context, as Convoy does for a connection's tracing.
struct TracePropagation: RequestAdapter {
  let span: ClientSpan

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    var request = request
    for field in span.headers(forAttempt: context.attempt) {
      request.setValue(field.value, forHTTPHeaderField: field.name)
    }
    return request
  }
}
