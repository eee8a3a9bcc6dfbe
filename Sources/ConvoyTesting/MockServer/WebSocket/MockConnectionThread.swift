import Foundation

/// Runs a scripted WebSocket's socket work on its ``MockServer`` connection's own thread.
///
/// The script is `async` and runs in a task; the socket is read and written with blocking calls,
/// which must never run on the concurrency pool (two blocked pool threads on a 2-core machine
/// would stall the very client under test). So each blocking step is handed to the connection's
/// thread, which exists to wait, and the script awaits its result.
final class MockConnectionThread: @unchecked Sendable {
  private let lock = NSLock()
  private let signal = DispatchSemaphore(value: 0)
  private var jobs: [() -> Void] = []
  private var isFinished = false

  /// Runs `work` on the connection's thread and returns its result.
  func run<Value: Sendable>(_ work: @escaping () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
      lock.withLock { jobs.append { continuation.resume(returning: work()) } }
      signal.signal()
    }
  }

  /// Ends ``serve()`` once the jobs handed over so far are done.
  func finish() {
    lock.withLock { isFinished = true }
    signal.signal()
  }

  /// Runs jobs on the calling thread until ``finish()``.
  func serve() {
    while true {
      signal.wait()
      let (job, finished) = lock.withLock { () -> ((() -> Void)?, Bool) in
        jobs.isEmpty ? (nil, isFinished) : (jobs.removeFirst(), false)
      }
      if let job { job() } else if finished { return }
    }
  }
}
