import Foundation

#if canImport(Darwin)
  import os
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value guarded by a lock, for state shared across threads. Copies share the value and its
/// lock.
///
/// The value and its lock live in one allocation (a `ManagedBuffer`). Convoy makes several of
/// these for every call, and an `NSLock` beside the value cost two allocations more, an
/// `NSObject`'s set-up and tear-down and a dynamically dispatched call for every lock and
/// unlock. The lock is the platform's own (`pthread_mutex_t`, `os_unfair_lock`), which
/// ThreadSanitizer understands: `Synchronization.Mutex` made it report false races on Linux, and
/// needs macOS 15 / iOS 18.
package struct Locked<Value>: @unchecked Sendable {
  private let buffer: LockedBuffer<Value>

  package init(_ value: Value) {
    buffer = LockedBuffer.make(holding: value)
  }

  /// Runs `body` with exclusive access to the value.
  @discardableResult
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try buffer.withLock(body)
  }

  /// A snapshot of the current value.
  package var current: Value {
    withLock { $0 }
  }
}

/// A lock that guards state kept beside it, where a value of its own does not fit (a class's
/// several properties, changed together).
package typealias Lock = Locked<Void>

extension Locked where Value == Void {
  /// A lock with nothing inside.
  package init() {
    self.init(())
  }

  /// Runs `body` holding the lock.
  @discardableResult
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    try buffer.withLockHeld(body)
  }
}

/// The value as the buffer's header, the lock as its one element: raw memory whose address
/// stays put, as a lock's must (a lock stored as a class's property has no stable address in
/// Swift).
private final class LockedBuffer<Value>: ManagedBuffer<Value, PlatformLock.Primitive> {
  static func make(holding value: Value) -> LockedBuffer {
    let buffer = unsafeDowncast(
      create(minimumCapacity: 1) { _ in value }, to: LockedBuffer.self)
    buffer.withUnsafeMutablePointerToElements { PlatformLock.initialize($0) }
    return buffer
  }

  deinit {
    withUnsafeMutablePointerToElements { PlatformLock.destroy($0) }
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try withLockHeld { try withUnsafeMutablePointerToHeader { try body(&$0.pointee) } }
  }

  /// Runs `body` holding the lock, without an access to the value: for ``Lock``, whose value is
  /// empty. An `inout` access to an empty value has no bytes of its own, and ThreadSanitizer
  /// took it for a write to the buffer's first bytes, racing with every unlocked read of them.
  func withLockHeld<Result>(_ body: () throws -> Result) rethrows -> Result {
    try withUnsafeMutablePointerToElements { lock in
      PlatformLock.lock(lock)
      defer { PlatformLock.unlock(lock) }
      return try body()
    }
  }
}

/// The platform's plainest mutual-exclusion lock.
private enum PlatformLock {
  #if canImport(Darwin)
    typealias Primitive = os_unfair_lock

    static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
      lock.initialize(to: os_unfair_lock())
    }

    static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
      lock.deinitialize(count: 1)
    }

    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
      os_unfair_lock_lock(lock)
    }

    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
      os_unfair_lock_unlock(lock)
    }
  #else
    typealias Primitive = pthread_mutex_t

    static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
      lock.initialize(to: pthread_mutex_t())
      let status = pthread_mutex_init(lock, nil)
      precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
      pthread_mutex_destroy(lock)
      lock.deinitialize(count: 1)
    }

    static func lock(_ lock: UnsafeMutablePointer<Primitive>) {
      let status = pthread_mutex_lock(lock)
      precondition(status == 0, "pthread_mutex_lock failed: \(status)")
    }

    static func unlock(_ lock: UnsafeMutablePointer<Primitive>) {
      let status = pthread_mutex_unlock(lock)
      precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }
  #endif
}
