import Foundation

/// Follows every call of a connection with a span of a distributed-tracing system.
///
/// Give one to a ``ServerConnection`` (its initializer's `tracing`) and every call the
/// connection makes — `execute`, a job's operations, streams, downloads, logins, token renewals
/// — begins a span, sends the span's context with each attempt and ends the span when the call
/// ends. Convoy links no tracing library itself: the Integrations package's `ConvoyTracing`
/// product implements this for swift-distributed-tracing.
///
/// For each call, on the call's own task:
/// 1. ``startSpan(for:)`` as the call begins, once it holds a network slot of the connection;
/// 2. ``CallSpan/headers(forAttempt:)`` as each attempt goes out, after every adapter;
/// 3. exactly once, ``CallSpan/finished(status:metrics:)`` or ``CallSpan/failed(_:metrics:)``
///    as the call ends (a stream: when its body ends).
///
/// A span that sends a W3C `traceparent` under a trace of the app's own:
///
/// ```swift
/// struct TraceparentOnly: CallTracing {
///   let trace: TraceContext
///
///   func startSpan(for call: TracedCall) -> any CallSpan { Span(trace: trace.child()) }
///
///   final class Span: CallSpan {
///     let trace: TraceContext
///     init(trace: TraceContext) { self.trace = trace }
///     func headers(forAttempt attempt: Int) -> HTTPHeaders { ["traceparent": trace.traceparent] }
///     func finished(status: Int, metrics: CallMetrics) {}
///     func failed(_ error: any Error, metrics: CallMetrics) {}
///   }
/// }
/// ```
///
/// Without one (the default), a call pays one `nil` check for it.
public protocol CallTracing: Sendable {
  /// Begins the span of a call that starts now, before its first attempt is built.
  ///
  /// - Parameter call: The call: its method, its URL and the span of the call it is made for.
  /// - Returns: The span Convoy tells of each attempt and of the call's end.
  func startSpan(for call: TracedCall) -> any CallSpan
}

/// The span of one call, begun by a ``CallTracing``: asked for the headers of every attempt and
/// told, exactly once, how the call ended.
///
/// Convoy calls it synchronously on the call's task: keep it fast.
public protocol CallSpan: AnyObject, Sendable {
  /// The header fields that carry this span's context to the server (`traceparent` for W3C
  /// Trace Context), for the attempt numbered `attempt` (from 1; retries and restarts count).
  ///
  /// Asked as each attempt goes out, after every adapter and the signing; the fields replace any
  /// of the same names the request has.
  func headers(forAttempt attempt: Int) -> HTTPHeaders

  /// The call ended with an answer of `status`; `metrics` says where its time went.
  func finished(status: Int, metrics: CallMetrics)

  /// The call ended with `error`: it failed, or was cancelled (`error.isCancellation`).
  ///
  /// The error's description may carry what a server or a URL said, secrets included: record
  /// its `ErrorMessageProvider.category(of:)`, or its description through
  /// `SecretRedactor.redact(_:)`.
  func failed(_ error: any Error, metrics: CallMetrics)
}

/// A call whose span begins: what ``CallTracing/startSpan(for:)`` knows of it.
public struct TracedCall: Sendable {
  /// The request's method.
  public var method: HTTPMethod
  /// Where the call goes, query included, before any adapter; `nil` when its path makes no
  /// valid URL. A query may carry a secret: record it through `SecretRedactor.redact(_:)`.
  public var url: URL?
  /// The span of the call this call is made for, if any: a token renewal's is the span of the
  /// call that started it (one renewal serves every call waiting for it). `nil` for a call of its
  /// own, whose parent is the tracer's current context.
  public var parent: (any CallSpan)?

  /// Describes a call.
  public init(method: HTTPMethod, url: URL?, parent: (any CallSpan)? = nil) {
    self.method = method
    self.url = url
    self.parent = parent
  }
}
