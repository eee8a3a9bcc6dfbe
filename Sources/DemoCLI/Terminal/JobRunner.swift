import Convoy
import Dispatch

/// Awaits Convoy work that is started with a completion queue and hands back a `JobToken`, so
/// that Ctrl-C cancels exactly that work through its token.
///
/// Completions run on democli's own serial queue: the main queue only runs while the main run
/// loop is pumped, which a command-line tool does not do.
struct JobRunner: Sendable {
  let queue = DispatchQueue(label: "democli.completions")
  let interruption: Interruption

  /// Starts work with `start` and returns its output.
  ///
  /// - Parameter start: Starts the work, delivering its result on the queue it is given, and
  ///   returns the work's token.
  func run<Output: Sendable>(
    _ start: (DispatchQueue, @escaping @Sendable (Result<Output, any Error>) -> Void) -> JobToken
  ) async throws -> Output {
    let token = Locked<JobToken?>(nil)
    let cancel: @Sendable () -> Void = { token.current?.cancel() }
    return try await interruption.cancelling(with: cancel) {
      try await withCheckedThrowingContinuation { continuation in
        let started = start(queue) { continuation.resume(with: $0) }
        token.withLock { $0 = started }
        // Ctrl-C between starting and registering the token must still cancel it.
        if interruption.wasInterrupted { started.cancel() }
      }
    }
  }
}
