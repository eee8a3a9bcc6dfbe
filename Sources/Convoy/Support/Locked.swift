import Foundation

/// A value guarded by a lock, for state shared across threads.
///
/// Built on `NSLock` rather than `Synchronization.Mutex`: on Linux, `Mutex` makes
/// ThreadSanitizer report false races, and on Apple platforms it needs macOS 15 / iOS 18.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  @discardableResult
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A snapshot of the current value.
  package var current: Value {
    withLock { $0 }
  }
}
