/// Renews the token when an answer says it is no longer good, then replays the request once.
///
/// Convoy puts it first in the decision chain of requests that need the session. The replay is
/// judged without this decision, so a replay that fails authentication again is reported, never
/// renewed again. Which answers count is ``AuthenticationConfiguration/invalidTokenSignals``.
struct AccessTokenRefresh: ResponseDecision, DeadlineAware {
  let controller: SessionController

  func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    let signals = context.configuration.authentication
    guard
      signals.signalsInvalidToken(status: response.statusCode, body: response.data),
      let header = context.sentRequest?.value(forHTTPHeaderField: "Authorization"),
      let staleToken = header.split(separator: " ", maxSplits: 1).last
    else { return .proceed(response) }
    do {
      _ = try await controller.renewedToken(
        replacing: String(staleToken), until: context.deadline, for: context.span)
    } catch let refusal as SessionController.Refusal {
      throw refusal.error(context: context)
    }
    return .restart(decisions: context.decisions.filter { !($0 is AccessTokenRefresh) })
  }
}
