import Foundation

/// Where a connection runs jobs and how many of its transfers may be in flight.
///
/// Chains, groups, blocks and network operations are started by one unlimited queue, because a
/// composite waiting for its children must never keep those children from starting. The network
/// limit is not a queue: it is one ``NetworkLimiter``, shared by every job's network operations
/// and by lone calls, which take a slot in the awaiting task without a queue's thread.
final class JobQueues: @unchecked Sendable {
  let work: OperationQueue
  /// The connection's one count of transfers in flight.
  let network: NetworkLimiter

  var networkLimit: Int { network.limit }

  init(networkLimit: Int) {
    work = OperationQueue()
    work.name = "Convoy.jobs"
    network = NetworkLimiter(limit: networkLimit)
  }
}
