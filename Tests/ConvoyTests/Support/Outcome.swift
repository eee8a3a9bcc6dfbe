import Foundation

/// Collects what a callback delivers and lets a test wait for it with a bound, so that a bug
/// fails the test instead of hanging it.
final class Outcome<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Value] = []
  private var waiters: [CheckedContinuation<Value?, Never>] = []

  func record(_ value: Value) {
    let waiters = lock.withLock {
      values.append(value)
      defer { self.waiters = [] }
      return self.waiters
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }

  /// How many times a value was recorded.
  var count: Int { lock.withLock { values.count } }

  /// All values recorded so far.
  var all: [Value] { lock.withLock { values } }

  /// The first value, waiting at most `seconds` for it.
  func first(within seconds: Double = 10) async -> Value? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
      let ready = lock.withLock { () -> Value? in
        if let first = values.first { return first }
        waiters.append(continuation)
        return nil
      }
      if let ready {
        continuation.resume(returning: ready)
        return
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
        let pending = lock.withLock {
          defer { waiters = [] }
          return waiters
        }
        for waiter in pending { waiter.resume(returning: nil) }
      }
    }
  }
}

/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double = 30, _ condition: @Sendable () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    try? await Task.sleep(nanoseconds: 2_000_000)
  }
  return condition()
}

/// A serial queue for completions: tests never depend on the main run loop.
let testQueue = DispatchQueue(label: "ConvoyTests.completions")
