import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Thread {
  /// Starts a thread running `body`, named `name` where debuggers, profilers and `/proc` show
  /// it.
  ///
  /// The name is set by the thread itself, through the system: on Linux, Foundation does not pass
  /// on a name set before `start()`, and `Thread.current.name` set in the new thread is dropped
  /// when the thread runs before its creator has finished starting it; the thread would keep its
  /// creator's name (often a Dispatch worker's). Linux takes at most 15 bytes, so longer names
  /// are cut.
  package static func detachNewThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let shortName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    let thread = Thread {
      #if canImport(Glibc)
        if let setName = SystemThreadName.set {
          _ = shortName.withCString { setName(pthread_self(), $0) }
        }
      #else
        Thread.current.name = shortName
      #endif
      body()
    }
    thread.start()
  }
}

#if canImport(Glibc)
  /// `pthread_setname_np`, looked up in the C library already loaded: the Glibc module of Swift
  /// does not map it.
  private enum SystemThreadName {
    static let set: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = dlsym(
      nil, "pthread_setname_np"
    ).map {
      unsafeBitCast($0, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }
  }
#endif
