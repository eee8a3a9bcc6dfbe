import ConvoyTestSupport
import Foundation

/// Collects what a callback delivers and lets a test wait for it with a bound, so that a bug
/// fails the test instead of hanging it.
final class Outcome<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Value] = []
  private var waiters: [CheckedContinuation<Value, Never>] = []

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

  /// The first value, waiting at most `seconds` of real time for it (through the tests' one
  /// bounded wait): a bound that only turns a lost callback into a failure, generous because a
  /// loaded machine under ThreadSanitizer can take seconds to schedule a healthy one.
  func first(within seconds: Double = Wait.bound) async -> Value? {
    await BoundedWait.value(within: .seconds(seconds)) { await self.firstValue() }
  }

  /// The first value, once there is one.
  private func firstValue() async -> Value {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
      let ready = lock.withLock { () -> Value? in
        if let first = values.first { return first }
        waiters.append(continuation)
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}

/// How long a test waits for something that should happen, in real time. Waits end as soon as
/// what they wait for happens; the bound only ends a test that would otherwise hang, so it is far
/// above a healthy run even on two busy cores under ThreadSanitizer.
enum Wait {
  static let bound: Double = 60
}

/// The one way a test waits for a condition: looks at `condition` (through the tests' shared
/// `poll`) until it holds or `seconds` of real time pass, and returns whether it held. There is no
/// event to wait on for, say, a stub's request count, which another thread makes true.
func eventually(within seconds: Double = Wait.bound, _ condition: () -> Bool) async -> Bool {
  let held = try? await poll(every: .milliseconds(2), within: .seconds(seconds)) {
    condition() ? true : nil
  }
  return held ?? false
}

/// A serial queue for completions: tests never depend on the main run loop.
let testQueue = DispatchQueue(label: "ConvoyTests.completions")
