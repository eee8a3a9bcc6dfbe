import Convoy
import Foundation
import Tracing

extension ServerConnection {
  /// Sends `request` inside a client span of `tracer`, whose context goes to the server through
  /// the tracer's own propagation (`traceparent` for a W3C tracer), and returns its typed answer.
  ///
  /// The span is the one ``DistributedTracing`` gives each call of a connection, for this call
  /// alone: a child of the task's current `InstrumentationContext`, with the same attributes and
  /// events. To trace every call (jobs, streams, downloads and token renewals included), give
  /// the connection a ``DistributedTracing`` instead; on such a connection this would make a
  /// second span.
  ///
  /// ```swift
  /// let places = try await connection.execute(PlacesRequest(), tracer: InstrumentationSystem.tracer)
  /// ```
  ///
  /// - Throws: What ``execute(_:)`` throws.
  public func execute<Request: RequestDescribing, T: Tracer>(_ request: Request, tracer: T)
    async throws -> Request.Response
  {
    let url = try? configuration.url(path: request.path, queryItems: request.queryItems)
    let span = ClientSpan(TracedCall(method: request.method, url: url), tracer: tracer)
    do {
      let answer = try await InstrumentationContext.$current.withValue(span.span.context) {
        try await execute(TracedRequest(base: request, propagation: TracePropagation(span: span)))
      }
      let response = (answer as? any HTTPResponseProviding)?.response
      span.end(status: response?.statusCode, metrics: response?.metrics)
      return answer
    } catch {
      span.end(error, metrics: nil)
      throw error
    }
  }
}
