import Foundation

/// The end of a child process, awaited without holding a thread: made before the process runs
/// (it sets the termination handler), then ``wait(within:)``.
public final class ProcessExit: @unchecked Sendable {
  private let process: Process
  private let lock = NSLock()
  private var exited = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Watches `process`, which must not have been started yet.
  public init(_ process: Process) {
    self.process = process
    process.terminationHandler = { [self] _ in
      let waiters = lock.withLock {
        exited = true
        defer { self.waiters = [] }
        return self.waiters
      }
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Waits until the process has ended, for at most `limit`; a process still running then is
  /// killed, and `false` returned.
  @discardableResult
  public func wait(within limit: Duration) async -> Bool {
    let inTime = await BoundedWait.value(within: limit) { await self.exit() } != nil
    if !inTime {
      kill(process.processIdentifier, SIGKILL)
      await exit()
    }
    return inTime
  }

  /// The exit status, once the process has ended.
  public var status: Int32 { process.terminationStatus }

  private func exit() async {
    await withCheckedContinuation { continuation in
      let done = lock.withLock {
        if !exited { waiters.append(continuation) }
        return exited
      }
      if done { continuation.resume() }
    }
  }
}
