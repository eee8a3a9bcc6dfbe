import Foundation

/// A value that a callback hands over once and a test awaits: the way integration tests wait for
/// a condition. The first value given wins; the suite's time limit bounds the wait, so a value
/// that never comes fails the test instead of hanging the run.
final class OneShot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var given: Value?
  private var waiters: [CheckedContinuation<Value, Never>] = []

  /// Hands over `value`, once; later calls are ignored.
  func fulfil(_ value: Value) {
    let waiters = lock.withLock { () -> [CheckedContinuation<Value, Never>] in
      guard given == nil else { return [] }
      given = value
      defer { self.waiters = [] }
      return self.waiters
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }

  /// Whether a value was handed over.
  var isFulfilled: Bool { lock.withLock { given != nil } }

  /// The value, once handed over.
  func value() async -> Value {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock { () -> Value? in
        if given == nil { waiters.append(continuation) }
        return given
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
