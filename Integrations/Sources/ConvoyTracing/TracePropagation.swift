import Convoy
import Foundation
import Tracing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The adapter a traced call adds to its request: at every attempt it injects the span's context
/// with the tracer's propagation, counts the attempt and marks it on the span.
final class TracePropagation<T: Tracer>: RequestAdapter, @unchecked Sendable {
  private let tracer: T
  private let span: T.Span
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var attemptCount = 0

  init(tracer: T, span: T.Span) {
    self.tracer = tracer
    self.span = span
  }

  /// How many attempts were sent so far.
  var attempts: Int { lock.withLock { attemptCount } }

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    lock.withLock { attemptCount = max(attemptCount, context.attempt) }
    var fields: [String: String] = [:]
    tracer.inject(span.context, into: &fields, using: HeaderInjector())
    var request = request
    for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
    span.addEvent(
      SpanEvent(
        name: "http.attempt",
        attributes: ["http.request.resend_count": .int64(Int64(context.attempt - 1))]))
    return request
  }
}

/// Writes a tracer's propagation fields into a dictionary of header fields.
struct HeaderInjector: Injector {
  func inject(_ value: String, forKey key: String, into fields: inout [String: String]) {
    fields[key] = value
  }
}
