import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends a W3C trace context with every attempt, for calls the task-local
/// ``TraceContext/current`` does not reach: a job's calls, which run in tasks of their own.
///
/// Each attempt gets `traceparent` with a new span id under the context's span, and
/// `tracestate`; with no context (`nil`), nothing is added. A request that already carries a
/// `traceparent` keeps it.
///
/// ```swift
/// let trace = TraceContext.newTrace()
/// let traced = ServerConnection(
///   configuration: .staging,
///   adapters: ServerConnection.standardAdapters + [TraceContextAdapter { trace }])
/// ```
public struct TraceContextAdapter: RequestAdapter, DeadlineAware {
  private let context: @Sendable () -> TraceContext?

  /// An adapter that asks `context` for the trace at every attempt.
  public init(_ context: @escaping @Sendable () -> TraceContext?) {
    self.context = context
  }

  /// Adds the trace headers when there is a context.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    guard let trace = self.context() else { return request }
    var request = request
    trace.apply(to: &request)
    return request
  }
}
