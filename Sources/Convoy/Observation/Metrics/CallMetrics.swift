import Foundation

/// Where the time of one call went: its attempts, redirects, the wait for a network slot, and
/// the transfers themselves.
///
/// A finished call reports its metrics on its last event (``ConvoyEvent/RequestFinished``,
/// ``ConvoyEvent/RequestFailed``, ``ConvoyEvent/RequestCancelled``) and, without any observer,
/// on the answer's head (``HTTPResponse/metrics``):
///
/// ```swift
/// let answer = try await connection.execute(PlacesRequest())
/// if let metrics = answer.response.metrics {
///   print("\(metrics.attempts) attempt(s), \(metrics.duration) s, waited \(metrics.queuedDuration) s")
/// }
/// ```
public struct CallMetrics: Sendable, Hashable {
  /// How many times the request was sent (a retried call: more than one).
  public var attempts: Int
  /// Redirects followed, over all attempts.
  public var redirects: Int
  /// Seconds the call waited for one of the connection's network slots before it began.
  public var queuedDuration: TimeInterval
  /// Seconds from the start of the call (after its wait for a slot) until its end. On an
  /// answer's head: until the answer arrived, before it was decoded.
  public var duration: TimeInterval
  /// The transfer of each attempt that brought an answer, in order; the last is the answer's.
  /// A redirected attempt reports its last hop.
  public var transfers: [TransferMetrics]

  /// Creates metrics.
  public init(
    attempts: Int, redirects: Int, queuedDuration: TimeInterval, duration: TimeInterval,
    transfers: [TransferMetrics]
  ) {
    self.attempts = attempts
    self.redirects = redirects
    self.queuedDuration = queuedDuration
    self.duration = duration
    self.transfers = transfers
  }

  /// How the HTTP cache took part in the last answer; `nil` without a cache or an answer.
  public var cacheOutcome: CacheOutcome? { transfers.last?.cacheOutcome }
  /// Whether the last answer was shared from another identical request's transfer.
  public var isCoalesced: Bool { transfers.last?.isCoalesced ?? false }
  /// The last answer's transfer, when there was an answer.
  public var lastTransfer: TransferMetrics? { transfers.last }
}
