import Foundation

/// Operations that run one after another, each built from the previous one's output.
///
/// Made with ``ResultOperation/then(_:)`` and ``ResultOperation/map(_:)``:
///
/// ```swift
/// let avatar = connection.operation(for: ProfileRequest())
///   .then { profile in connection.operation(for: AvatarRequest(url: profile.value.avatar)) }
///   .map(\.data)
/// ```
///
/// A step's operation is built only when the previous step succeeded, and handed to a queue
/// only then: the chain never wires `addDependency` ahead of time (on Linux a pre-wired chain
/// costs time quadratic in its length). The first error stops the chain, which finishes with
/// it; later steps are never built. Cancelling the chain cancels the running step and finishes
/// once that step's work stopped.
///
/// `then` and `map` on a chain that has not started return a longer chain that takes its place:
/// run only the longest one. The shorter chain object still finishes, with its own typed result,
/// when the longer chain gets past its last step (or with the error that stopped the longer
/// chain). Build a chain completely before running it, and use each operation in one composition
/// only: an operation runs once.
final class ChainOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
  private let plan: ChainPlan
  private let stepCount: Int
  private let last: ChainSlot<Output>

  // Guarded by `stateLock`: one lock per operation keeps a 10,000-step chain cheap to build.
  private var nextIndex = 0
  private var current: AsyncOperation?
  private var isStopped = false
  private var hasExpanded = false
  private var isReplaced = false
  private var isFirstStepTaken = false

  init(plan: ChainPlan, stepCount: Int, last: ChainSlot<Output>) {
    self.plan = plan
    self.stepCount = stepCount
    self.last = last
    super.init()
  }

  override var countsAsProgressUnit: Bool {
    stateLock.withLock { !hasExpanded }
  }

  override func chainForExtension() -> ChainOperation<Output> {
    guard !isExecuting, !isFinished else { return super.chainForExtension() }
    stateLock.withLock { isReplaced = true }
    plan.registerReplacedChain(stepCount: stepCount) { [weak self] error in
      self?.finishAsReplaced(failingWith: error)
    }
    return self
  }

  /// Finishes this chain, which a longer one replaced, once the longer one got past its steps.
  private func finishAsReplaced(failingWith error: (any Error)?) {
    start()
    finish(with: error.map { .failure($0) } ?? last.peek())
  }

  /// Appends the step `make` builds from this chain's last slot and a new one.
  func extended<Next>(with make: (ChainSlot<Output>, ChainSlot<Next>) -> ChainStep)
    -> ChainOperation<Next>
  {
    let next = ChainSlot<Next>()
    let step = make(last, next)
    return ChainOperation<Next>(
      plan: plan.appending(step, after: stepCount), stepCount: stepCount + 1, last: next)
  }

  /// Runs the steps in order.
  public override func execute() {
    // A replaced chain does not run its steps: the chain that replaced it does, and finishes it.
    guard !stateLock.withLock({ isReplaced }) else { return }
    let context = self.context ?? .standalone
    stateLock.withLock { hasExpanded = true }
    context.progress?.addUnits(plan.operationCount(upTo: stepCount) - 1)
    onCancel { [self] in stop() }
    advance(in: context)
  }

  override func skipExecution() {
    guard !stateLock.withLock({ isReplaced }) else { return }
    finishFirstStepIfNeverRun()
    plan.finishReplacedChains(below: stepCount, failingWith: ServerConnectionError.cancelled)
  }

  /// The first step's operation exists before the chain runs (later steps are built on the way);
  /// when the chain stops before handing it to a queue, it is finished here, without running, so
  /// that no operation is left unfinished.
  private func finishFirstStepIfNeverRun() {
    let neverRun = stateLock.withLock { () -> Bool in
      defer { isFirstStepTaken = true }
      return !isFirstStepTaken
    }
    guard neverRun, case .operation(let first, _)? = try? plan.step(at: 0).run() else { return }
    first.cancel()
    first.start()
  }

  private func complete(with result: Result<Output, any Error>) {
    finishFirstStepIfNeverRun()
    if case .failure(let error) = result {
      plan.finishReplacedChains(below: stepCount, failingWith: error)
    }
    finish(with: result)
  }

  private func advance(in context: OperationContext) {
    while true {
      let index = stateLock.withLock { () -> Int? in
        guard !isStopped else { return nil }
        isFirstStepTaken = true
        defer { nextIndex += 1 }
        return nextIndex
      }
      guard let index else { return complete(with: .failure(ServerConnectionError.cancelled)) }
      guard index < stepCount else {
        return complete(with: Result { try last.take() })
      }
      let outcome: ChainStep.Outcome
      do {
        outcome = try plan.step(at: index).run()
      } catch {
        return complete(with: .failure(error))
      }
      guard case .operation(let operation, let collect) = outcome else {
        plan.finishReplacedChain(stepCount: index + 1)
        continue
      }
      let accepted = stateLock.withLock { () -> Bool in
        guard !isStopped else { return false }
        current = operation
        return true
      }
      guard accepted else {
        operation.cancel()
        operation.start()
        return complete(with: .failure(ServerConnectionError.cancelled))
      }
      context.enqueue(operation) { [self] in
        guard settle(operation) else { return }
        collect()
        plan.finishReplacedChain(stepCount: index + 1)
        advance(in: context)
      }
      return
    }
  }

  /// Claims the step that just ended; `false` when cancellation already moved past it.
  private func settle(_ operation: AsyncOperation) -> Bool {
    stateLock.withLock {
      guard current === operation else { return false }
      current = nil
      return true
    }
  }

  private func stop() {
    let running = stateLock.withLock { () -> AsyncOperation? in
      isStopped = true
      return current
    }
    guard let running else { return }
    // A step still waiting in its queue will skip its work; there is nothing to wait for.
    if !running.cancelReportingWhetherStarted(), settle(running) {
      complete(with: .failure(ServerConnectionError.cancelled))
    }
  }
}
