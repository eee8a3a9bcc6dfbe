import Foundation

/// The time Convoy reads and waits on: token expiry and the refresh margin, cookie expiry, cache
/// freshness, whole-call and job deadlines, retry back-off, stream reconnection delays and
/// device-code polling.
///
/// Every connection uses the clock of its ``ServerConfiguration/clock``, ``SystemClock`` by
/// default; ``HTTPCache`` and ``CookieJar`` take one when they are made. Tests pass
/// `ConvoyTesting`'s `TestClock` instead, so that an expiry or a back-off happens when the test
/// advances the clock rather than after real seconds:
///
/// ```swift
/// let configuration = ServerConfiguration(
///   environment: .local, baseURL: URL(string: "http://127.0.0.1:8080")!, clock: .system)
/// let inAMinute = configuration.clock.now.addingTimeInterval(60)
/// ```
///
/// A clock only measures time: a transport's own network timeouts (libcurl's idle limit,
/// URLSession's request timeout) run on real time, since they are about real sockets.
public protocol ConvoyClock: Sendable {
  /// The current date on this clock.
  var now: Date { get }

  /// Runs `action` once `seconds` have passed on this clock, unless the returned timer is
  /// cancelled first. The action runs on no particular thread and must not block.
  func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void)
    -> ClockTimer

  /// Suspends the calling task until `seconds` have passed on this clock; throws
  /// `CancellationError` at once when the task is cancelled.
  ///
  /// The default waits through ``schedule(after:_:)``.
  func sleep(for seconds: TimeInterval) async throws
}

extension ConvoyClock {
  /// Suspends the calling task until this clock reaches `date`; throws `CancellationError` at
  /// once when the task is cancelled.
  public func sleep(until date: Date) async throws {
    try await sleep(for: date.timeIntervalSince(now))
  }

  /// Waits through ``schedule(after:_:)``, so that any clock that can run an action later can
  /// also suspend a task.
  public func sleep(for seconds: TimeInterval) async throws {
    try Task.checkCancellation()
    let sleeper = Sleeper()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        guard sleeper.wait(continuation) else { return }
        sleeper.arm(schedule(after: seconds) { sleeper.wake(throwing: nil) })
      }
    } onCancel: {
      sleeper.wake(throwing: CancellationError())
    }
  }
}

extension ConvoyClock where Self == SystemClock {
  /// Real time: `Date()` and the process's monotonic timers.
  public static var system: SystemClock { SystemClock() }
}

/// A wake-up scheduled on a ``ConvoyClock``; cancelling it after it ran is harmless.
public struct ClockTimer: Sendable {
  private let cancelAction: @Sendable () -> Void

  /// Creates a timer that `cancel` stops; for clocks of one's own.
  public init(cancel: @escaping @Sendable () -> Void) {
    cancelAction = cancel
  }

  /// Drops the action if it has not run yet.
  public func cancel() {
    cancelAction()
  }
}

/// One task's sleep: resumed exactly once, by its timer or by cancellation, whichever is first.
private final class Sleeper: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Void, any Error>?
    var timer: ClockTimer?
    var isOver = false
  }

  private let state = Locked(State())

  /// Keeps `continuation`; `false` when cancellation came first (the continuation is resumed).
  func wait(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
    let isOver = state.withLock { state in
      if !state.isOver { state.continuation = continuation }
      return state.isOver
    }
    if isOver { continuation.resume(throwing: CancellationError()) }
    return !isOver
  }

  /// Keeps the timer, so that cancellation can drop it; drops it at once if the sleep is over.
  func arm(_ timer: ClockTimer) {
    let isOver = state.withLock { state in
      if !state.isOver { state.timer = timer }
      return state.isOver
    }
    if isOver { timer.cancel() }
  }

  func wake(throwing error: (any Error)?) {
    let (continuation, timer) = state.withLock { state in
      state.isOver = true
      defer { (state.continuation, state.timer) = (nil, nil) }
      return (state.continuation, state.timer)
    }
    if error != nil { timer?.cancel() }
    if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
  }
}
