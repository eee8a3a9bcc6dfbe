import Foundation

// Every call ends with exactly one of these three events.
extension ConvoyEvent {
  /// The call produced its value (`request.finished`); a stream's call finishes when its body
  /// ends.
  public struct RequestFinished: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The URL of the last answer (after redirects), redacted; `nil` only when a stream's head
    /// had no URL.
    public let url: String?
    /// The last answer's status.
    public let status: Int
    /// Seconds the whole call took.
    public let duration: TimeInterval
    /// Where the call's time went; `nil` only for events made by hand.
    public let metrics: CallMetrics?

    /// Describes `call` finishing with an answer from `url`, which it redacts.
    public init(
      call: CallIdentity, url: URL?, status: Int, duration: TimeInterval,
      metrics: CallMetrics? = nil
    ) {
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.status = status
      self.duration = duration
      self.metrics = metrics
    }
  }

  /// The call failed (`request.failed`).
  public struct RequestFailed: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The request's URL, redacted; `nil` when its path makes no valid URL.
    public let url: String?
    /// The status of the answer that failed the call, when an answer did.
    public let status: Int?
    /// The failure's developer description, redacted.
    public let reason: String
    /// The failure's family, as ``ErrorMessageProvider`` sorts it.
    public let errorCategory: ErrorCategory
    /// Seconds the whole call took.
    public let duration: TimeInterval
    /// Where the call's time went; `nil` only for events made by hand.
    public let metrics: CallMetrics?

    /// Describes `call` to `url` failing; redacts the URL and the reason.
    public init(
      call: CallIdentity, url: URL?, status: Int?, reason: String, errorCategory: ErrorCategory,
      duration: TimeInterval, metrics: CallMetrics? = nil
    ) {
      self.metrics = metrics
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.status = status
      self.reason = SecretRedactor.redact(reason)
      self.errorCategory = errorCategory
      self.duration = duration
    }
  }

  /// The call was cancelled (`request.cancelled`).
  public struct RequestCancelled: Sendable, Hashable {
    /// The call.
    public let call: CallIdentity
    /// The request's URL, redacted; `nil` when its path makes no valid URL.
    public let url: String?
    /// Seconds from the call's start to its cancellation.
    public let duration: TimeInterval
    /// Where the call's time went until it was cancelled; `nil` only for events made by hand.
    public let metrics: CallMetrics?

    /// Describes `call` to `url` being cancelled; redacts the URL.
    public init(
      call: CallIdentity, url: URL?, duration: TimeInterval, metrics: CallMetrics? = nil
    ) {
      self.metrics = metrics
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.duration = duration
    }
  }
}
