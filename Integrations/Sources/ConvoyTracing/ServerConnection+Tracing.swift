import Convoy
import Foundation
import Tracing

extension ServerConnection {
  /// Sends `request` inside a client span of `tracer`, whose context goes to the server through
  /// the tracer's own propagation (`traceparent` for a W3C tracer), and returns its typed answer.
  ///
  /// The span is a child of the task's current `InstrumentationContext`, named after the method
  /// (`GET`), with the OpenTelemetry HTTP client attributes: `http.request.method`, `url.full`
  /// (redacted as Convoy's events are: no credentials, no secret query items), `server.address`,
  /// `server.port`, and once the call is over `http.response.status_code`,
  /// `network.protocol.version`, `http.request.resend_count` (from the second attempt on) and, on
  /// failure, `error.type` with the span's status set to error. Each attempt adds an event
  /// `http.attempt` (its `http.request.resend_count`), and the answer's transfer its phases as
  /// `convoy.*` attributes.
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
    let span = tracer.startSpan(
      request.method.rawValue, context: InstrumentationContext.current ?? .topLevel,
      ofKind: .client)
    defer { span.end() }
    span.updateAttributes { attributes in
      attributes["http.request.method"] = request.method.rawValue
      attributes["url.full"] = url.map(SecretRedactor.redact)
      attributes["server.address"] = url?.host
      attributes["server.port"] = url.flatMap(\.port).map { Int64($0) } ?? Self.defaultPort(url)
    }
    let propagation = TracePropagation(tracer: tracer, span: span)
    do {
      let answer = try await InstrumentationContext.$current.withValue(span.context) {
        try await execute(TracedRequest(base: request, propagation: propagation))
      }
      SpanAttributesFromAnswer.record(answer, attempts: propagation.attempts, on: span)
      return answer
    } catch {
      SpanAttributesFromAnswer.record(error, attempts: propagation.attempts, on: span)
      throw error
    }
  }

  private static func defaultPort(_ url: URL?) -> Int64? {
    switch url?.scheme?.lowercased() {
    case "https": 443
    case "http": 80
    default: nil
    }
  }
}
