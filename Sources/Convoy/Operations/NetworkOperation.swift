import Foundation

/// An operation that holds one of its connection's network slots while it runs: a call, a
/// stream or a download.
///
/// It runs on the connection's network queue, whose width is the connection's
/// ``ServerConnection/networkConcurrencyLimit``, so transfers of every kind wait their turn
/// together. Cancelling it cancels its transfer. Convoy's subclasses are
/// ``NetworkRequestOperation``, ``StreamOperation`` and ``DownloadOperation``.
public class NetworkOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
  /// The road the work travels, taken from the connection when the operation was made: an
  /// operation knows the pipeline, not the connection, so operations sit below connections.
  let pipeline: CallPipeline
  /// Set while a task awaits this operation's slot: resumed with `true` when the queue starts
  /// the operation (the task then does the work itself), with `false` when it will never run.
  /// Guarded by `stateLock`.
  private var awaitingTask: CheckedContinuation<Bool, Never>?
  /// The call's metrics: how long it waited for its slot, and what its pipeline records.
  let metrics = CallMetricsRecorder()

  init(pipeline: CallPipeline) {
    self.pipeline = pipeline
    super.init()
  }

  override var usesNetwork: Bool { true }

  /// Does the work in a task of its own, or wakes the task that waits to do it.
  public override func execute() {
    if let awaitingTask = takeAwaitingTask() {
      awaitingTask.resume(returning: true)
      return
    }
    var pipeline = pipeline
    pipeline.jobID = context?.jobID
    pipeline.metrics = metrics
    let task = Task { [self, pipeline] in
      finish(with: await metrics.measuring { await perform(with: pipeline) })
    }
    onCancel { task.cancel() }
  }

  /// The work: one call, stream or download through `pipeline`. Cancellation reaches it as the
  /// cancellation of its task.
  func perform(with pipeline: CallPipeline) async -> Result<Output, any Error> {
    .failure(OperationError.finishedWithoutResult)
  }

  override func prepare(context: OperationContext, whenFinished action: (@Sendable () -> Void)?) {
    metrics.enqueued()
    super.prepare(context: context, whenFinished: action)
  }

  override func skipExecution() {
    takeAwaitingTask()?.resume(returning: false)
  }

  /// Runs the operation on `context`'s network queue with the calling task doing the work.
  ///
  /// The operation holds its place on the queue like any other: it waits for a free slot, and
  /// it is executing while the work is in flight. Only the work moves: the queue's thread wakes
  /// the waiting task instead of starting a task of its own, which saves two thread hand-overs
  /// per call (the result needs no hop back to the caller). Cancelling the calling task cancels
  /// the work; while the operation still waits for a slot, the call ends at once.
  func runInCallingTask(on context: OperationContext) async throws -> Output {
    guard await waitForSlot(on: context) else { throw ServerConnectionError.cancelled }
    var pipeline = pipeline
    pipeline.metrics = metrics
    let result = await metrics.measuring { await perform(with: pipeline) }
    finish(with: result)
    return try result.get()
  }

  /// Enqueues the operation and waits until the queue starts it: `true` then, `false` when it
  /// was cancelled first and will never run.
  func waitForSlot(on context: OperationContext) async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        stateLock.withLock { awaitingTask = continuation }
        context.enqueue(self, whenFinished: nil)
      }
    } onCancel: {
      // Work that never began has nothing to wait for; the queue later finds the operation
      // cancelled and finishes it without running it.
      if !cancelReportingWhetherStarted() { takeAwaitingTask()?.resume(returning: false) }
    }
  }

  /// `handler` and the job's byte count, told of this operation's transfer progress.
  func reportingToJob(_ handler: (@Sendable (TransferProgress) -> Void)?)
    -> (@Sendable (TransferProgress) -> Void)?
  {
    guard let tracker = context?.progress else { return handler }
    let transfer = ObjectIdentifier(self)
    return { progress in
      tracker.update(transfer, to: progress)
      handler?(progress)
    }
  }

  private func takeAwaitingTask() -> CheckedContinuation<Bool, Never>? {
    stateLock.withLock {
      defer { awaitingTask = nil }
      return awaitingTask
    }
  }
}
