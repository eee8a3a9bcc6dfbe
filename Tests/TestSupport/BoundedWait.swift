import Foundation

/// How Convoy's tests wait: for a condition, never for a guessed time, and always with a bound so
/// that a bug fails the test instead of hanging the run.
///
/// These are the only waits in the tests that look at the clock: ``ProcessExit`` for a program
/// the test started, and ``poll(every:within:_:)`` for what only looking can show (a file another
/// process writes).
public enum BoundedWait {
  /// Runs `work`, or gives up after `limit`; `nil` when the time ran out first.
  ///
  /// Work that never finishes (a continuation never resumed) is left behind rather than waited
  /// for, so the bound holds whatever the work does.
  public static func value<Value: Sendable>(
    within limit: Duration, _ work: @escaping @Sendable () async -> Value
  ) async -> Value? {
    let first = FirstOf<Value?>()
    return await withCheckedContinuation { continuation in
      first.setWaiter(continuation)
      Task { first.give(await work()) }
      Task {
        try? await Task.sleep(for: limit)
        first.give(nil)
      }
    }
  }
}

/// Hands the first value given to the one waiter; later ones are dropped.
private final class FirstOf<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var waiter: CheckedContinuation<Value, Never>?
  private var given: Value?
  private var isGiven = false

  func setWaiter(_ continuation: CheckedContinuation<Value, Never>) {
    let (done, value) = lock.withLock { () -> (Bool, Value?) in
      if isGiven { return (true, given) }
      waiter = continuation
      return (false, nil)
    }
    // `given` is set whenever `isGiven` is.
    if done, let value { continuation.resume(returning: value) }
  }

  func give(_ value: Value) {
    let waiter = lock.withLock { () -> CheckedContinuation<Value, Never>? in
      guard !isGiven else { return nil }
      isGiven = true
      given = value
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume(returning: value)
  }
}

/// Looks at `probe` every `interval` until it gives a value, for at most `limit`.
///
/// For what a test can only observe by looking: a file written by another process, a log line
/// a real server writes after it answered. Anything that can announce itself (a callback, a
/// continuation, a server's recorded request) should be awaited instead.
public func poll<Value>(
  every interval: Duration = .milliseconds(20), within limit: Duration = .seconds(10),
  _ probe: () throws -> Value?
) async throws -> Value? {
  let deadline = ContinuousClock.now + limit
  while true {
    if let value = try probe() { return value }
    guard ContinuousClock.now < deadline else { return nil }
    try await Task.sleep(for: interval)
  }
}
