import Foundation

/// When, and how soon, a call is sent again after a transient failure.
///
/// This is the one place that decides "retry or not": ``RetryDecision`` asks it about
/// answers, the pipeline asks it about transport failures. A call is retried only when
///
/// - its method is idempotent, or the request sets ``RequestDescribing/allowsRetry``, or the
///   failure shows it never left the client (``unsentFailures``: a refused connection, an unknown
///   host, no network); and its body can be sent again (``RequestBody/isReplayable``);
/// - fewer than ``maximumRetries`` retries happened so far;
/// - the answer's status is in ``retryableStatusCodes`` (and not one the request accepts), or the
///   transport failure's kind is in ``retryableFailures``;
/// - the wait fits both ``maximumDelay`` and the call's deadline.
///
/// The wait is the server's `Retry-After` when it sent one (RFC 9110 §10.2.3: seconds or an
/// HTTP-date), else exponential back-off: `baseDelay × multiplier^(retry − 1)`, capped at
/// `maximumDelay`, then shortened by a random fraction of at most ``jitter`` so that clients that
/// failed together do not return together.
///
/// After an attempt that failed while the connection's ``ConnectivityMonitor`` says offline, a
/// call that waits for connectivity (``ServerConfiguration/waitsForConnectivity``) is sent again
/// as soon as the network returns instead of after this back-off, still within its deadline and
/// ``maximumRetries``; one that does not wait is not retried then (it would fail the same way).
///
/// ```swift
/// var configuration = ServerConfiguration.local(port: 8080)
/// configuration.retryPolicy = RetryPolicy(maximumRetries: 4, baseDelay: 0.2)
/// ```
public struct RetryPolicy: Sendable, Hashable {
  /// How many times a call may be sent again after its first attempt; `0` disables retries.
  public var maximumRetries: Int
  /// The wait before the first retry, before jitter.
  public var baseDelay: TimeInterval
  /// How much longer each following wait is than the one before.
  public var multiplier: Double
  /// The longest wait. A server asking for longer with `Retry-After` gets its answer reported
  /// instead of a retry.
  public var maximumDelay: TimeInterval
  /// The largest fraction, from 0 to 1, by which a back-off wait is randomly shortened;
  /// `1` is "full jitter". `Retry-After` waits are never shortened.
  public var jitter: Double
  /// Statuses worth another try.
  public var retryableStatusCodes: Set<Int>
  /// Transport failures worth another try.
  public var retryableFailures: Set<TransportFailure.Kind>
  /// Whether a `Retry-After` header sets the wait.
  public var honoursRetryAfter: Bool

  /// Statuses that say "not now" rather than "no": 408, 429, 502, 503, 504.
  public static let transientStatusCodes: Set<Int> = [408, 429, 502, 503, 504]

  /// Failures a moment later may not repeat: timeouts, refused or dropped connections, name
  /// lookups, a missing network. TLS and URL errors are not among them, nor a malformed answer
  /// (``TransportFailure/Kind/badServerResponse``: a broken status line, header or framing),
  /// which the same server sends again the same way.
  public static let transientFailures: Set<TransportFailure.Kind> = [
    .timedOut, .cannotConnectToHost, .networkConnectionLost, .cannotFindHost,
    .notConnectedToInternet,
  ]

  /// Failures that happen before a single byte of the request is sent, so that sending it again
  /// cannot repeat its effect, whatever its method: a refused connection, an unknown host, no
  /// network. Dropped connections and timeouts are not among them: the server may have acted.
  public static let unsentFailures: Set<TransportFailure.Kind> = [
    .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet,
  ]

  /// Two retries, waiting about 0.5 s then 1 s.
  public static let standard = RetryPolicy()

  /// No retries at all.
  public static let never = RetryPolicy(maximumRetries: 0)

  /// Creates a policy.
  public init(
    maximumRetries: Int = 2,
    baseDelay: TimeInterval = 0.5,
    multiplier: Double = 2,
    maximumDelay: TimeInterval = 30,
    jitter: Double = 0.5,
    retryableStatusCodes: Set<Int> = RetryPolicy.transientStatusCodes,
    retryableFailures: Set<TransportFailure.Kind> = RetryPolicy.transientFailures,
    honoursRetryAfter: Bool = true
  ) {
    self.maximumRetries = max(0, maximumRetries)
    self.baseDelay = max(0, baseDelay)
    self.multiplier = max(1, multiplier)
    self.maximumDelay = max(0, maximumDelay)
    self.jitter = min(1, max(0, jitter))
    self.retryableStatusCodes = retryableStatusCodes
    self.retryableFailures = retryableFailures
    self.honoursRetryAfter = honoursRetryAfter
  }

  /// What went wrong with an attempt.
  public enum Trigger: Sendable {
    /// An answer arrived.
    case response(TransportResponse)
    /// No answer arrived.
    case failure(TransportFailure)
  }

  /// The seconds to wait before sending the call again, or `nil` when it must not be retried.
  ///
  /// - Parameters:
  ///   - trigger: The answer or failure of the attempt that just ended.
  ///   - context: The call; its ``RequestContext/retries`` counts the retries so far.
  ///   - now: The current time, for `Retry-After` dates and the deadline: the connection's
  ///     ``ServerConfiguration/clock`` (`context.configuration.clock.now`), on which the deadline
  ///     was set.
  public func delay(
    after trigger: Trigger, context: RequestContext, now: Date = Date()
  ) -> TimeInterval? {
    var generator = SystemRandomNumberGenerator()
    return delay(after: trigger, context: context, now: now, using: &generator)
  }

  func delay<Generator: RandomNumberGenerator>(
    after trigger: Trigger, context: RequestContext, now: Date, using generator: inout Generator
  ) -> TimeInterval? {
    guard context.retries < maximumRetries else { return nil }
    let wait: TimeInterval
    switch trigger {
    case .failure(let failure):
      let neverSent = context.isBodyReplayable && Self.unsentFailures.contains(failure.kind)
      guard context.isRetryable || neverSent, retryableFailures.contains(failure.kind) else {
        return nil
      }
      wait = jittered(backoff(beforeRetry: context.retries + 1), using: &generator)
    case .response(let response):
      guard context.isRetryable else { return nil }
      let status = response.statusCode
      guard retryableStatusCodes.contains(status), !context.acceptableStatusCodes.contains(status)
      else { return nil }
      if honoursRetryAfter, let value = response.headers["Retry-After"],
        let requested = RetryAfter.delay(from: value, now: now)
      {
        wait = requested
      } else {
        wait = jittered(backoff(beforeRetry: context.retries + 1), using: &generator)
      }
    }
    guard wait <= maximumDelay, now.addingTimeInterval(wait) < context.deadline else { return nil }
    return wait
  }

  /// The back-off before retry number `retry` (from 1), without jitter.
  public func backoff(beforeRetry retry: Int) -> TimeInterval {
    let exponent = Double(max(0, retry - 1))
    return min(maximumDelay, baseDelay * pow(multiplier, exponent))
  }

  /// `delay` shortened by a random fraction of at most ``jitter``.
  func jittered(_ delay: TimeInterval) -> TimeInterval {
    var generator = SystemRandomNumberGenerator()
    return jittered(delay, using: &generator)
  }

  private func jittered<Generator: RandomNumberGenerator>(
    _ delay: TimeInterval, using generator: inout Generator
  ) -> TimeInterval {
    guard jitter > 0, delay > 0 else { return delay }
    return delay * (1 - jitter * Double.random(in: 0..<1, using: &generator))
  }
}
