import Foundation

/// Where a job's operations run and whom they report progress to; composites hand it on to
/// their children.
final class OperationContext: Sendable {
  let queues: JobQueues
  let progress: JobProgressTracker?
  /// The job's identity in events, when anyone observes them.
  let jobID: UInt64?

  init(queues: JobQueues, progress: JobProgressTracker?, jobID: UInt64? = nil) {
    self.queues = queues
    self.progress = progress
    self.jobID = jobID
  }

  /// For composites run on a queue of the caller's own, outside any job.
  static let standalone = OperationContext(queues: JobQueues(networkLimit: 6), progress: nil)

  /// How many children a composite hands to the queues at once: enough to keep the network
  /// slots busy, few enough that another job's operations are not queued behind thousands.
  var window: Int { max(4, queues.networkLimit * 2) }

  /// Hands `operation` to the job queue; `whenFinished` runs on the finishing thread once it
  /// finished. A network operation takes its slot from the limiter once the queue starts it.
  func enqueue(_ operation: AsyncOperation, whenFinished: (@Sendable () -> Void)?) {
    operation.prepare(context: self, whenFinished: whenFinished)
    queues.work.addOperation(operation)
  }
}
