import Foundation

/// How Convoy's tests wait: for a condition, never for a guessed time, and always with a bound so
/// that a bug fails the test instead of hanging the run.
///
/// These are the only waits in the tests that look at the clock: ``ProcessExit`` for a program
/// the test started, and ``poll(every:within:_:)`` for what only looking can show (a file another
/// process writes).
public enum BoundedWait {
  /// Runs `work`, or gives up after `limit`; `nil` when the time ran out first.
  public static func value<Value: Sendable>(
    within limit: Duration, _ work: @escaping @Sendable () async -> Value
  ) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
      group.addTask { await work() }
      group.addTask {
        try? await Task.sleep(for: limit)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
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
