import Foundation

extension ConvoyEvent {
  /// Which call an event is about; the same for every event and every attempt of one call.
  public struct CallIdentity: Sendable, Hashable {
    /// The call's number, unique within the process.
    public let id: UInt64
    /// The job the call belongs to, if a job made it.
    public let jobID: UInt64?
    /// The request's method.
    public let method: HTTPMethod

    /// Names call `id`, made with `method` by job `jobID` (if any).
    public init(id: UInt64, jobID: UInt64? = nil, method: HTTPMethod) {
      self.id = id
      self.jobID = jobID
      self.method = method
    }
  }

  /// A call began (`request.created`).
  public struct RequestCreated: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The request's URL, redacted; `nil` when its path makes no valid URL (the call then
    /// fails at once).
    public let url: String?

    /// Describes the start of `call` to `url`, which it redacts.
    public init(call: CallIdentity, url: URL?) {
      self.call = call
      self.url = url.map(SecretRedactor.redact)
    }
  }

  /// An attempt's adapters ran (`request.adapted`): the request as it will be sent.
  public struct RequestAdapted: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The attempt's URL, redacted.
    public let url: String
    /// The attempt, from 1.
    public let attempt: Int
    /// The attempt's headers, redacted.
    public let headers: HTTPHeaders

    /// Describes attempt `attempt` of `call` to `url` with `headers`, redacting both.
    public init(call: CallIdentity, url: URL, attempt: Int, headers: HTTPHeaders) {
      self.call = call
      self.url = SecretRedactor.redact(url)
      self.attempt = attempt
      self.headers = SecretRedactor.redact(headers)
    }
  }

  /// An attempt was handed to the transport (`request.sent`).
  public struct RequestSent: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The attempt's URL, redacted.
    public let url: String
    /// The attempt, from 1.
    public let attempt: Int

    /// Describes sending attempt `attempt` of `call` to `url`, which it redacts.
    public init(call: CallIdentity, url: URL, attempt: Int) {
      self.call = call
      self.url = SecretRedactor.redact(url)
      self.attempt = attempt
    }
  }

  /// An answer arrived (`response.received`). A stream reports it at its head.
  public struct ResponseReceived: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The answer's URL (after redirects), redacted.
    public let url: String
    /// The attempt, from 1.
    public let attempt: Int
    /// The answer's status.
    public let status: Int
    /// Body bytes received; 0 for a stream's head, or the bytes of an error body read for its
    /// message.
    public let bytes: Int
    /// Seconds from sending to the whole answer (to the head, for a stream).
    public let duration: TimeInterval

    /// Describes the answer to attempt `attempt` of `call` from `url`, which it redacts.
    public init(
      call: CallIdentity, url: URL, attempt: Int, status: Int, bytes: Int, duration: TimeInterval
    ) {
      self.call = call
      self.url = SecretRedactor.redact(url)
      self.attempt = attempt
      self.status = status
      self.bytes = bytes
      self.duration = duration
    }
  }

  /// A decision judged an answer (`decision.taken`).
  public struct DecisionTaken: Sendable, Hashable {
    /// What a decision said to do with an answer.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
      /// Pass the answer on to the next decision.
      case proceed
      /// Send the request again at once, perhaps with another chain of decisions.
      case restart
      /// Send the request again after a delay.
      case retry
      /// Fail the call.
      case fail
      /// The call's value is made.
      case done
    }

    /// The call.
    public let call: CallIdentity
    /// The attempt's URL, redacted.
    public let url: String
    /// The attempt, from 1.
    public let attempt: Int
    /// The decision's type name, e.g. `RetryDecision`.
    public let decision: String
    /// What the decision said.
    public let outcome: Outcome
    /// Whether the call did not follow the outcome: the decision asked to send the request again
    /// but its body cannot be sent twice, so the answer went on to the next decision.
    public let isDeclined: Bool

    /// Describes `decision`'s `outcome` for attempt `attempt` of `call` to `url`, which it
    /// redacts.
    public init(
      call: CallIdentity, url: URL, attempt: Int, decision: String, outcome: Outcome,
      isDeclined: Bool = false
    ) {
      self.call = call
      self.url = SecretRedactor.redact(url)
      self.attempt = attempt
      self.decision = decision
      self.outcome = outcome
      self.isDeclined = isDeclined
    }
  }

  /// An attempt failed and will be sent again after ``delay`` (`request.retried`).
  public struct RequestRetried: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The failed attempt's URL, redacted.
    public let url: String
    /// The attempt that failed, from 1.
    public let attempt: Int
    /// Seconds before the next attempt is sent.
    public let delay: TimeInterval
    /// Why, e.g. `status 503` or the transport's failure; redacted.
    public let reason: String

    /// Describes waiting `delay` seconds after attempt `attempt` of `call` to `url` failed
    /// because of `reason`; redacts the URL and the reason.
    public init(call: CallIdentity, url: URL, attempt: Int, delay: TimeInterval, reason: String) {
      self.call = call
      self.url = SecretRedactor.redact(url)
      self.attempt = attempt
      self.delay = delay
      self.reason = SecretRedactor.redact(reason)
    }
  }
}
