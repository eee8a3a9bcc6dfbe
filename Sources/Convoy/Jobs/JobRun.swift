import Dispatch
import Foundation

/// One run of a job: its root operation, its deadline, its token and the completion that must
/// run exactly once.
///
/// The completion runs when the root operation finished, which happens only after every
/// operation the job started has stopped. The one exception is a root still waiting in its queue
/// when the job is cancelled: its work can no longer begin, so the job completes at once.
final class JobRun<Output: Sendable>: @unchecked Sendable {
  private let lock = Lock()
  private var root: ResultOperation<Output>?
  private var completion: (@Sendable (Result<Output, any Error>) -> Void)?
  private var stopReason: (any Error)?
  private var deadline: ClockTimer?
  private let completionQueue: DispatchQueue?
  private let progress: JobProgressTracker
  private let events: JobEventEmitter?
  private let startDate = Date()

  init(
    root: ResultOperation<Output>, completionQueue: DispatchQueue?, progress: JobProgressTracker,
    events: JobEventEmitter?, completion: @escaping @Sendable (Result<Output, any Error>) -> Void
  ) {
    self.root = root
    self.completionQueue = completionQueue
    self.progress = progress
    self.events = events
    self.completion = completion
  }

  func start(
    on queues: JobQueues, token: JobToken, timeout: TimeInterval?,
    timeoutError: any Error = ServerConnectionError.timedOut(ErrorContext()),
    clock: any ConvoyClock = .system
  ) {
    guard let rootOperation = lock.withLock({ root }) else { return }
    events?.emitStarted()
    token.attach(progress)
    token.onCancel { [weak self] in self?.stop(because: ServerConnectionError.cancelled) }
    if let timeout {
      // The shared scheduler drops a cancelled deadline at once; a dispatch timer per job would
      // live on until its deadline even after the job completed.
      let timer = clock.schedule(after: timeout) { [weak self] in
        self?.stop(because: timeoutError)
      }
      let isOver = lock.withLock { () -> Bool in
        deadline = timer
        return completion == nil
      }
      if isOver { timer.cancel() }
    }
    let context = OperationContext(
      queues: queues, progress: progress, jobID: events?.jobID)
    context.enqueue(rootOperation) { [self] in
      rootFinished()
    }
  }

  private func stop(because reason: any Error) {
    let running = lock.withLock { () -> ResultOperation<Output>? in
      guard completion != nil, stopReason == nil else { return nil }
      stopReason = reason
      return root
    }
    guard let running else { return }
    if !running.cancelReportingWhetherStarted() { complete(with: .failure(reason)) }
  }

  private func rootFinished() {
    let result = lock.withLock { () -> Result<Output, any Error>? in
      if let stopReason { return .failure(stopReason) }
      return root?.settledResult
    }
    if let result { complete(with: result) }
  }

  private func complete(with result: Result<Output, any Error>) {
    let (completion, deadline) = lock.withLock {
      defer {
        self.completion = nil
        self.deadline = nil
        root = nil
      }
      return (self.completion, self.deadline)
    }
    guard let completion else { return }
    deadline?.cancel()
    progress.finish()
    // The ending event goes out where the progress events went, so it comes after them.
    let finish: @Sendable () -> Void = { [events, startDate] in
      if case .failure(let error) = result {
        events?.emitEnd(error, startedAt: startDate)
      } else {
        events?.emitEnd(nil, startedAt: startDate)
      }
      completion(result)
    }
    if let completionQueue {
      completionQueue.async(execute: finish)
    } else {
      finish()
    }
  }
}
