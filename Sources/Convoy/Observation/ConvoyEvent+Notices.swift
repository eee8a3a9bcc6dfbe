import Foundation

extension ConvoyEvent {
  /// An event stream or a reconnecting WebSocket ended or dropped and will be opened again
  /// after ``delay`` (`stream.reconnecting`). Each reconnection is a new call, with its own
  /// identity.
  public struct StreamReconnecting: Sendable, Hashable {
    /// The call that will open the stream again.
    public let call: CallIdentity
    /// The stream's URL, redacted; `nil` when its path makes no valid URL.
    public let url: String?
    /// The reconnection, from 1.
    public let attempt: Int
    /// Seconds before the stream is opened again.
    public let delay: TimeInterval
    /// Why, e.g. the stream ended or the connection dropped; redacted.
    public let reason: String

    /// Describes reconnection `attempt` to `url` in `delay` seconds because of `reason`; redacts
    /// the URL and the reason.
    public init(
      call: CallIdentity, url: URL?, attempt: Int, delay: TimeInterval, reason: String
    ) {
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.attempt = attempt
      self.delay = delay
      self.reason = SecretRedactor.redact(reason)
    }
  }

  /// Something worth knowing that is not about one call (`notice`), e.g. a transport fallback
  /// or a token revocation that failed.
  public struct Notice: Sendable, Hashable {
    /// What happened, redacted.
    public let text: String

    /// A notice saying `text`, which it redacts.
    public init(_ text: String) {
      self.text = SecretRedactor.redact(text)
    }
  }
}
