import Dispatch
import Foundation

@testable import Convoy

extension ServerConnection {
  /// Waits until every operation of the connection has left its queues, then until every
  /// completion already handed to `testQueue` has run.
  ///
  /// After that nothing the connection did can still complete, so a count checked next proves
  /// "nothing else happened": unlike a pause, it cannot miss a late duplicate.
  func settled() async -> Bool {
    let drained = await eventually {
      jobQueues.network.operationCount == 0 && jobQueues.work.operationCount == 0
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      testQueue.async { done.resume() }
    }
    return drained
  }
}
