import Convoy
import Foundation

/// Runs `work` in a task and blocks the calling thread until it is done.
///
/// Only for a ``MockServer`` connection's own thread, which exists to wait: it lets a scripted
/// answer be `async` (a route's closure, a streamed body) without the server ever blocking a
/// thread of Dispatch's or of the concurrency pool.
func waitOnThisThread<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
  let result = Locked<Value?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let value = await work()
    result.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return result.current!
}
