import Foundation

/// Real time, the clock every connection uses unless told otherwise: `Date()` for dates, one
/// process-wide monotonic timer for scheduled actions, `Task.sleep` for sleeping.
public struct SystemClock: ConvoyClock {
  /// Creates the clock; every instance is the same real time.
  public init() {}

  /// The current date.
  public var now: Date { Date() }

  /// Runs `action` on a private queue once `seconds` have passed, unless cancelled before.
  public func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void)
    -> ClockTimer
  {
    let token = DeadlineScheduler.shared.schedule(after: seconds, action)
    return ClockTimer { token.cancel() }
  }

  /// Suspends the calling task with `Task.sleep`.
  public func sleep(for seconds: TimeInterval) async throws {
    guard seconds > 0 else { return try Task.checkCancellation() }
    try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
  }
}
