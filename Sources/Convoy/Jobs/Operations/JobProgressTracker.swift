import Dispatch
import Foundation

/// Counts one job's units and tells its observer, coalescing bursts into one delivery at a time
/// so that a 10,000-operation job does not flood the main queue.
final class JobProgressTracker: @unchecked Sendable {
  private let lock = Lock()
  private var completed = 0
  private var total = 1
  private var isDeliveryScheduled = false
  /// The latest progress of each transfer of the job, by operation.
  private var transfers: [ObjectIdentifier: TransferProgress] = [:]
  private let handler: (@Sendable (JobProgress) -> Void)?
  private let queue: DispatchQueue?

  init(queue: DispatchQueue?, handler: (@Sendable (JobProgress) -> Void)?) {
    self.queue = queue
    self.handler = handler
  }

  var current: JobProgress {
    lock.withLock { progressUnlocked }
  }

  private var progressUnlocked: JobProgress {
    let moved = transfers.values.reduce(Int64(0)) { $0 + $1.completedBytes }
    let sizes = transfers.values.map(\.totalBytes)
    let expected: Int64? =
      sizes.isEmpty || sizes.contains(nil) ? nil : sizes.reduce(Int64(0)) { $0 + ($1 ?? 0) }
    return JobProgress(
      completedUnitCount: completed, totalUnitCount: total, transferredBytes: moved,
      expectedBytes: expected)
  }

  /// A transfer of the job moved bytes.
  func update(_ transfer: ObjectIdentifier, to progress: TransferProgress) {
    changed { transfers[transfer] = progress }
  }

  func addUnits(_ count: Int) {
    guard count != 0 else { return }
    changed { total = max(completed, total + count) }
  }

  func completeUnit() {
    changed {
      completed += 1
      total = max(total, completed)
    }
  }

  /// The job ended: whatever was planned and never ran no longer counts.
  func finish() {
    changed { completed = total }
  }

  private func changed(_ update: () -> Void) {
    let deliver = lock.withLock { () -> Bool in
      update()
      guard handler != nil, !isDeliveryScheduled else { return false }
      isDeliveryScheduled = true
      return true
    }
    guard deliver, let handler else { return }
    let send: @Sendable () -> Void = { [self] in
      let progress = lock.withLock {
        isDeliveryScheduled = false
        return progressUnlocked
      }
      handler(progress)
    }
    if let queue { queue.async(execute: send) } else { send() }
  }
}
