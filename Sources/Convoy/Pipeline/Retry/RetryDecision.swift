import Foundation

/// Sends the call again when the answer's status says "not now" (503, 429, …), as the
/// ``RetryPolicy`` allows; otherwise hands the answer on unchanged.
///
/// It belongs before ``StatusValidation``, which would otherwise fail the answer first.
/// Transport failures never reach decisions: the pipeline asks the same policy about them.
public struct RetryDecision: ResponseDecision, DeadlineAware {
  /// The policy to follow, or `nil` for the call's (the request's, else the configuration's).
  public var policy: RetryPolicy?

  /// Creates the decision.
  public init(policy: RetryPolicy? = nil) {
    self.policy = policy
  }

  /// Retries after the policy's delay, or proceeds with the answer as it is.
  public func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    let policy = self.policy ?? context.retryPolicy
    guard
      let delay = policy.delay(
        after: .response(response), context: context, now: context.configuration.clock.now)
    else {
      return .proceed(response)
    }
    return .retry(after: delay)
  }
}
