import Foundation

/// An operation that holds one of its connection's network slots while it runs: a call, a
/// stream or a download.
///
/// The slots are the connection's ``ServerConnection/networkConcurrencyLimit``, counted by one
/// limiter for transfers of every kind, in jobs and alone, so they all wait their turn together.
/// Waiting holds no thread. Cancelling the operation cancels its transfer, or takes it out of
/// the line for a slot. A call is a ``NetworkRequestOperation``; streams, downloads and
/// WebSockets are made by ``ServerConnection/streamOperation(for:options:consume:)``,
/// ``ServerConnection/downloadOperation(for:to:options:progress:)`` and
/// ``ServerConnection/webSocketOperation(for:consume:)``.
public class NetworkOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
  /// The road the work travels, taken from the connection when the operation was made: an
  /// operation knows the pipeline, not the connection, so operations sit below connections.
  let pipeline: CallPipeline
  /// The limiter whose slot this operation holds, given back when it finishes. Guarded by
  /// `stateLock`.
  private var heldSlot: NetworkLimiter?
  /// Set when the awaiting task does the work itself: `execute()` then only marks the start.
  /// Guarded by `stateLock`.
  private var runsInCallingTask = false
  /// The call's metrics: how long it waited for its slot, and what its pipeline records.
  let metrics: CallMetricsRecorder

  init(pipeline: CallPipeline) {
    // The pipeline carries the recorder from the start, so that running the call needs no copy
    // of the pipeline (a copy retains everything the configuration holds).
    let metrics = CallMetricsRecorder()
    var pipeline = pipeline
    pipeline.metrics = metrics
    self.pipeline = pipeline
    self.metrics = metrics
    super.init()
  }

  /// Takes a network slot (waiting for one without a thread), then does the work in a task of
  /// its own; in a calling task's run, does nothing more than mark the start.
  ///
  /// With a slot free, the task starts on the queue's thread that called this, which is there
  /// to start operations; the work's first wait (the transfer) frees it.
  public override func execute() {
    if stateLock.withLock({ runsInCallingTask }) { return }
    guard let limiter = context?.queues.network else {
      // On a queue of the caller's own, outside any connection's limit.
      performInTask(startingHere: true)
      return
    }
    if limiter.tryAcquire() {
      hold(limiter)
      performInTask(startingHere: true)
      return
    }
    let waiter = limiter.acquire { [self] granted in
      guard granted else {
        finish(with: .failure(ServerConnectionError.cancelled))
        return
      }
      hold(limiter)
      // Granted on the thread that freed the slot, at the end of another call: a task of its
      // own keeps that call's end from running this call's beginning.
      performInTask(startingHere: false)
    }
    onCancel { limiter.withdraw(waiter) }
  }

  private func performInTask(startingHere: Bool) {
    var pipeline = pipeline
    pipeline.jobID = context?.jobID
    let work: @Sendable () async -> Void = { [self, pipeline] in
      finish(with: await metrics.measuring { await perform(with: pipeline) })
    }
    let task = startingHere ? Task.startingHere(work) : Task<Void, Never>(operation: work)
    onCancel { task.cancel() }
  }

  /// The work: one call, stream or download through `pipeline`. Cancellation reaches it as the
  /// cancellation of its task.
  nonisolated(nonsending) func perform(
    with pipeline: CallPipeline
  ) async -> Result<Output, any Error> {
    .failure(OperationError.finishedWithoutResult)
  }

  override func prepare(context: OperationContext, whenFinished action: (@Sendable () -> Void)?) {
    metrics.enqueued()
    super.prepare(context: context, whenFinished: action)
  }

  /// Runs the operation under `context`'s network limit with the calling task doing the work.
  ///
  /// The operation is the same as in a job: it takes a slot (at once when one is free, with no
  /// thread hand-over; otherwise the task waits in line without holding a thread), it is
  /// executing while the work is in flight, and it finishes with the work's result. Cancelling
  /// the calling task cancels the work; while the operation still waits for a slot, the call
  /// ends at once.
  nonisolated(nonsending) func runInCallingTask(
    on context: OperationContext
  ) async throws -> Output {
    guard await begin(on: context) else { throw ServerConnectionError.cancelled }
    return try await performBegun()
  }

  /// The work of a call begun in the calling task, then its finish.
  ///
  /// Not inlined, and that is the point: an async function's frame is as large as everything
  /// inlined into it and is taken when the function is entered. Inlined into
  /// `runInCallingTask`, the pipeline's frame would be held by every call still waiting for a
  /// slot, so a waiting call holds only the small frames of its wait.
  @inline(never)
  nonisolated(nonsending) private func performBegun() async throws -> Output {
    let result = await metrics.measuring { await perform(with: pipeline) }
    finish(with: result)
    return try result.get()
  }

  /// Takes a slot on `context`'s limiter and starts the operation in the calling task: `true`
  /// then, and the caller must finish it; `false` when it was cancelled first and will never
  /// run (it is then finished).
  nonisolated(nonsending) func begin(on context: OperationContext) async -> Bool {
    prepare(context: context, whenFinished: nil)
    stateLock.withLock { runsInCallingTask = true }
    let limiter = context.queues.network
    guard await limiter.acquire() else {
      cancel()
      start()
      return false
    }
    hold(limiter)
    if Task.isCancelled { cancel() }
    start()
    // `start()` finished the operation at once if it was cancelled meanwhile.
    return !isFinished
  }

  private func hold(_ limiter: NetworkLimiter) {
    stateLock.withLock { heldSlot = limiter }
  }

  override func didFinish() {
    let slot = stateLock.withLock {
      defer { heldSlot = nil }
      return heldSlot
    }
    slot?.release()
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
}
