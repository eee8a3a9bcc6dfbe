import Foundation

extension Thread {
  /// Starts a thread running `body`, named `name` where debuggers, profilers and `/proc` show
  /// it.
  ///
  /// The name is set by the thread itself: on Linux, Foundation does not pass on a name set
  /// before `start()`, and the thread would keep its creator's (often a Dispatch worker's). Linux
  /// takes at most 15 bytes, so longer names are cut.
  package static func detachNewThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    let shortName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    let thread = Thread {
      Thread.current.name = shortName
      body()
    }
    thread.start()
  }
}
