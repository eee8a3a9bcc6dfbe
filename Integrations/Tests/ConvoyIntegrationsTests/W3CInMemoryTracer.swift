import Foundation
import InMemoryTracing
import Tracing

/// The in-memory tracer with W3C-sized ids whose propagation is W3C Trace Context: it injects a
/// `traceparent` naming the span's trace and span ids, as an OpenTelemetry tracer would.
struct W3CInMemoryTracer: Tracer {
  let recorder = InMemoryTracer(
    idGenerator: InMemoryTracer.IDGenerator(
      nextTraceID: { randomHex(32) }, nextSpanID: { randomHex(16) }))

  func startSpan<Instant: TracerInstant>(
    _ operationName: String, context: @autoclosure () -> InstrumentationContext,
    ofKind kind: SpanKind, at instant: @autoclosure () -> Instant, function: String,
    file fileID: String, line: UInt
  ) -> InMemorySpan {
    recorder.startSpan(
      operationName, context: context(), ofKind: kind, at: instant(), function: function,
      file: fileID, line: line)
  }

  func forceFlush() {}

  func inject<Carrier, Inject: Injector>(
    _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
  ) where Carrier == Inject.Carrier {
    guard let span = context.inMemorySpanContext else { return }
    injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
  }

  func extract<Carrier, Extract: Extractor>(
    _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
  ) where Carrier == Extract.Carrier {}
}

private func randomHex(_ digits: Int) -> String {
  String((0..<digits).map { _ in "0123456789abcdef".randomElement()! })
}
