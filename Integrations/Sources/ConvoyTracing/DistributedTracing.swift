import Convoy
import Foundation
import Tracing

/// Traces every call of a connection with swift-distributed-tracing: one client span per call,
/// whose context goes to the server through the tracer's own propagation (`traceparent` for a
/// W3C tracer) with every attempt.
///
/// Give it to the connection once:
///
/// ```swift
/// let connection = ServerConnection(
///   configuration: configuration, tracing: DistributedTracing(tracer: InstrumentationSystem.tracer))
/// ```
///
/// Every call the connection makes then has its span: `execute`, a job's operations, streams
/// (the span ends when the body does), downloads, logins and token renewals. A call's span is a
/// child of the task's current span (`InstrumentationContext.current`); a token renewal's is a
/// child of the call that started it, even while other calls wait for the same renewal. A job's
/// calls run in tasks of their own, which the task-local does not reach: their spans start
/// traces of their own.
///
/// The span is named after the method (`GET`) and has the OpenTelemetry HTTP client attributes:
/// `http.request.method`, `url.full` (redacted as Convoy's events are: no credentials, no secret
/// query items), `server.address`, `server.port`, and once the call is over
/// `http.response.status_code`, `network.protocol.version`, `http.request.resend_count` (from
/// the second attempt on) and, on failure, `error.type` with the span's status set to error.
/// Each attempt adds an event `http.attempt`, and the last transfer its phases as `convoy.*`
/// attributes.
public struct DistributedTracing: CallTracing {
  private let tracer: any Tracer

  /// Traces calls with `tracer`: the process's (`InstrumentationSystem.tracer`, as bootstrapped
  /// before this is made) by default.
  public init(tracer: any Tracer = InstrumentationSystem.tracer) {
    self.tracer = tracer
  }

  /// Begins the client span of `call`.
  public func startSpan(for call: TracedCall) -> any CallSpan {
    ClientSpan(call, tracer: tracer)
  }
}
