import Foundation

extension ConvoyEvent {
  /// The connection's ``ConnectivityMonitor`` reported a new state (`connectivity.changed`):
  /// the first reading, then every change. Not about one call.
  public struct ConnectivityChanged: Sendable, Hashable {
    /// The new state.
    public let connectivity: Connectivity

    /// Describes a change to `connectivity`.
    public init(connectivity: Connectivity) {
      self.connectivity = connectivity
    }
  }

  /// A call waits for the network to return before it sends attempt ``attempt``
  /// (`request.waitingForConnectivity`): the monitor says offline and the call waits for
  /// connectivity (``ServerConfiguration/waitsForConnectivity``), or an attempt failed offline
  /// and its retry waits for the network instead of a back-off.
  public struct RequestWaitingForConnectivity: Sendable, Hashable {
    /// The call that waits.
    public let call: CallIdentity
    /// The call's URL, redacted; `nil` when its path makes no valid URL.
    public let url: String?
    /// The attempt that will be sent when the network returns, from 1.
    public let attempt: Int
    /// Seconds left before the call's deadline: the longest the wait can last.
    public let timeLeft: TimeInterval

    /// Describes `call`'s wait before `attempt` to `url`, which it redacts.
    public init(call: CallIdentity, url: URL?, attempt: Int, timeLeft: TimeInterval) {
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.attempt = attempt
      self.timeLeft = timeLeft
    }
  }
}
