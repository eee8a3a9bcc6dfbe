import Convoy
import Foundation
import Tracing

/// The client span of one call, after the OpenTelemetry HTTP client conventions: begun as the
/// call begins, its context injected into every attempt, ended with the call.
///
/// Both ways of tracing make one: ``DistributedTracing``, which Convoy asks for every call of a
/// connection, and `execute(_:tracer:)`, which traces one call.
final class ClientSpan: CallSpan, @unchecked Sendable {
  private let tracer: any Tracer
  /// The tracer's span.
  let span: any Span
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var attemptCount = 0

  /// Starts the span of `call`: a child of its parent call's span when it has one (a token
  /// renewal), else of the task's current context.
  init(_ call: TracedCall, tracer: any Tracer) {
    self.tracer = tracer
    let parent = (call.parent as? ClientSpan)?.span.context ?? InstrumentationContext.current
    span = tracer.startSpan(
      call.method.rawValue, context: parent ?? .topLevel, ofKind: .client)
    let url = call.url
    span.updateAttributes { attributes in
      attributes["http.request.method"] = call.method.rawValue
      attributes["url.full"] = url.map(SecretRedactor.redact)
      attributes["server.address"] = url?.host
      attributes["server.port"] = url.flatMap(\.port).map { Int64($0) } ?? Self.defaultPort(url)
    }
  }

  /// How many attempts were sent so far.
  var attempts: Int { lock.withLock { attemptCount } }

  /// The tracer's propagation fields for the span's context; the attempt is counted and marked
  /// on the span as an `http.attempt` event.
  func headers(forAttempt attempt: Int) -> HTTPHeaders {
    lock.withLock { attemptCount = max(attemptCount, attempt) }
    var fields: [String: String] = [:]
    tracer.inject(span.context, into: &fields, using: HeaderInjector())
    span.addEvent(
      SpanEvent(
        name: "http.attempt",
        attributes: ["http.request.resend_count": .int64(Int64(attempt - 1))]))
    return HTTPHeaders(fields)
  }

  func finished(status: Int, metrics: CallMetrics) {
    end(status: status, metrics: metrics)
  }

  func failed(_ error: any Error, metrics: CallMetrics) {
    end(error, metrics: metrics)
  }

  /// Ends the span with an answer; its status and metrics when the caller knows them.
  func end(status: Int?, metrics: CallMetrics?) {
    SpanAttributesFromAnswer.record(status: status, metrics: metrics, attempts: attempts, on: span)
    span.end()
  }

  /// Ends the span with a failure.
  func end(_ error: any Error, metrics: CallMetrics?) {
    SpanAttributesFromAnswer.record(error, metrics: metrics, attempts: attempts, on: span)
    span.end()
  }

  private static func defaultPort(_ url: URL?) -> Int64? {
    switch url?.scheme?.lowercased() {
    case "https": 443
    case "http": 80
    default: nil
    }
  }
}

/// Writes a tracer's propagation fields into a dictionary of header fields.
struct HeaderInjector: Injector {
  func inject(_ value: String, forKey key: String, into fields: inout [String: String]) {
    fields[key] = value
  }
}
