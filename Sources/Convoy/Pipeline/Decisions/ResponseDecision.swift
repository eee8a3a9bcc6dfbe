import Foundation

/// One step in judging an answer: validate it, map it, restart or retry the call, fail, or
/// produce the value.
///
/// Decisions run in order; each gets the answer as the previous one left it.
public protocol ResponseDecision: Sendable {
  /// Judges `response` for `request`.
  func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response>
}

/// What a ``ResponseDecision`` concluded.
public enum ResponseDecisionOutcome<Value: Sendable>: Sendable {
  /// Hand this answer (possibly changed) to the next decision.
  case proceed(TransportResponse)
  /// Send the request again now, judging the next answer with `decisions` (or the same chain);
  /// for a changed situation, such as a refreshed token. Adapters run again.
  case restart(decisions: [any ResponseDecision]?)
  /// Send the request again after `delay` seconds because the failure looked transient; counted
  /// in ``RequestContext/retries``. Cancelling the call ends the wait at once.
  case retry(after: TimeInterval)
  /// Stop the call with this error.
  case fail(any Error)
  /// Stop the call with this value.
  case done(Value)
}

extension ResponseDecisionOutcome {
  /// Whether the outcome sends the request again (``restart(decisions:)`` or ``retry(after:)``).
  var sendsTheRequestAgain: Bool {
    switch self {
    case .restart, .retry: true
    case .proceed, .fail, .done: false
    }
  }
}

extension ResponseDecisionOutcome {
  /// What the outcome says to do, for events.
  var eventOutcome: ConvoyEvent.DecisionTaken.Outcome {
    switch self {
    case .proceed: .proceed
    case .restart: .restart
    case .retry: .retry
    case .fail: .fail
    case .done: .done
    }
  }
}
