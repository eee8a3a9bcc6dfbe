import Foundation

/// The operation queues a connection runs jobs on.
///
/// Network operations get their own queue whose width is the connection's limit; chains, groups
/// and blocks run on an unlimited queue, because a composite waiting for its children holds a
/// slot and must never keep those children from getting one.
final class JobQueues: @unchecked Sendable {
  let work: OperationQueue
  let network: OperationQueue
  let networkLimit: Int

  init(networkLimit: Int) {
    self.networkLimit = max(1, networkLimit)
    work = OperationQueue()
    work.name = "Convoy.jobs"
    network = OperationQueue()
    network.name = "Convoy.network"
    network.maxConcurrentOperationCount = self.networkLimit
  }
}
