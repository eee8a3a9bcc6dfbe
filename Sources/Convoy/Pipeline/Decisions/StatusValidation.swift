/// Fails answers whose status the request does not accept.
///
/// When the body carries a message meant for people (see ``ServerErrorMessageParser``), the
/// error is ``ServerConnectionError/descriptiveServerError(_:_:)``; otherwise
/// ``ServerConnectionError/httpError(_:_:)``.
public struct StatusValidation: ResponseDecision, DeadlineAware {
  /// How a human message is found in an error body.
  public var parser: ServerErrorMessageParser

  /// Creates the decision.
  public init(parser: ServerErrorMessageParser = ServerErrorMessageParser()) {
    self.parser = parser
  }

  /// Proceeds with an accepted status, fails otherwise.
  public func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    let status = response.statusCode
    guard !context.acceptableStatusCodes.contains(status) else { return .proceed(response) }
    let errorContext = context.errorContext(statusCode: status, body: response.data)
    if let message = parser.message(in: response) {
      return .fail(ServerConnectionError.descriptiveServerError(message, errorContext))
    }
    return .fail(ServerConnectionError.httpError(status, errorContext))
  }
}
