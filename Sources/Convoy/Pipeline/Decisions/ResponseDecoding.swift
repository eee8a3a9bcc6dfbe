/// Makes the request's response value from the answer; the usual last decision.
public struct ResponseDecoding: ResponseDecision, DeadlineAware {
  /// Creates the decision.
  public init() {}

  /// Finishes with the decoded value, or fails with
  /// ``ServerConnectionError/decodingFailed(_:_:)`` saying which field of which type.
  public func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    do {
      return .done(
        try Request.Response(
          data: response.data, response: response.head,
          decoder: context.decoder))
    } catch {
      return .fail(
        ServerConnectionError.decodingFailed(
          DecodingFailure(error, responseType: Request.Response.self),
          context.errorContext(statusCode: response.statusCode, body: response.data)
        ))
    }
  }
}
