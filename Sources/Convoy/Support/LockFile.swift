#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock(2)` on a lock file, which keeps other processes out of what it guards
/// (a journal, a file of notes) for as long as the lock is held.
///
/// A lock file beside the guarded file, not the file itself: that one is replaced by `rename`,
/// which would leave a lock on a file no one opens any more.
package enum LockFile {
  /// Why a lock could not be taken.
  package enum Failure: Error {
    /// Another process holds it (only when not waiting).
    case held
    /// The lock file could not be opened or locked: the call and its `errno`.
    case system(call: String, errno: Int32)
  }

  /// Opens `path` (creating it, readable by the owner only) and takes its exclusive lock,
  /// waiting for another process to let go when `waits` is true.
  ///
  /// - Returns: The descriptor that holds the lock; closing it lets go.
  package static func lock(_ path: String, waits: Bool) throws(Failure) -> Int32 {
    let descriptor = systemOpen(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .system(call: "open", errno: errno) }
    while flock(descriptor, LOCK_EX | (waits ? 0 : LOCK_NB)) != 0 {
      let code = errno
      if code == EINTR { continue }
      _ = systemClose(descriptor)
      throw code == EWOULDBLOCK ? .held : .system(call: "flock", errno: code)
    }
    return descriptor
  }

  /// Lets go of a lock `lock(_:waits:)` took.
  package static func unlock(_ descriptor: Int32) {
    _ = systemClose(descriptor)
  }
}
