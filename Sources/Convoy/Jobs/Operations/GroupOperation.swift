import Foundation

/// Operations that run side by side, with an optional limit on how many run at once.
///
/// ```swift
/// // Every article, four at a time; the first failure cancels the rest.
/// let articles = GroupOperation(
///   ids.map { connection.operation(for: ArticleRequest(id: $0)) }, maximumConcurrentChildren: 4)
///
/// // Different types side by side, combined into one value.
/// let screen = GroupOperation.all(profile, articles, settings).map { profile, articles, settings in
///   HomeScreen(profile: profile.value, articles: articles.map(\.value), settings: settings.value)
/// }
/// ```
///
/// Children are handed to the job's queues a few at a time (twice the connection's network
/// limit, or the group's own limit when smaller), so a big group keeps few operations pending
/// and other jobs' operations interleave with it. Cancelling the group cancels the running
/// children; children not yet handed to a queue finish at once without running. The group
/// finishes only once every child it started has stopped. A cancelled group fails with
/// ``ServerConnectionError/cancelled`` whatever its failure policy.
///
/// Children are independent: wire ordering with ``ResultOperation/then(_:)``, not
/// `addDependency` between children.
public final class GroupOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
  private let policy: GroupFailurePolicy
  private let limit: Int?
  private let assemble: @Sendable () throws -> Output

  // Guarded by `stateLock`.
  private var children: [AsyncOperation]
  private let childCount: Int
  private var nextIndex = 0
  private var inFlight = 0
  private var settled: [Bool]
  private var settledCount = 0
  private var firstError: (any Error)?
  private var isStopping = false
  private var isCancelledGroup = false
  private var isCompleted = false
  private var hasExpanded = false

  /// Creates a group from children and a closure that reads their results into the output.
  init(
    children: [AsyncOperation], policy: GroupFailurePolicy, maximumConcurrentChildren: Int?,
    assemble: @escaping @Sendable () throws -> Output
  ) {
    self.children = children
    self.childCount = children.count
    self.policy = policy
    self.limit = maximumConcurrentChildren.map { max(1, $0) }
    self.assemble = assemble
    self.settled = Array(repeating: false, count: children.count)
    super.init()
  }

  override var countsAsProgressUnit: Bool {
    stateLock.withLock { !hasExpanded }
  }

  /// Starts the first children; the rest start as earlier ones finish.
  public override func execute() {
    let context = self.context ?? .standalone
    stateLock.withLock { hasExpanded = true }
    context.progress?.addUnits(childCount - 1)
    onCancel { [self] in stop(cancelling: true) }
    launch(in: context)
    completeIfAllSettled()
  }

  override func skipExecution() {
    finishUnlaunched()
  }

  private func launch(in context: OperationContext) {
    let window = min(limit ?? Int.max, context.window)
    let batch = stateLock.withLock { () -> [(Int, AsyncOperation)] in
      var batch: [(Int, AsyncOperation)] = []
      while !isStopping, inFlight < window, nextIndex < childCount {
        batch.append((nextIndex, children[nextIndex]))
        inFlight += 1
        nextIndex += 1
      }
      return batch
    }
    for (index, child) in batch {
      context.enqueue(child) { [self] in childFinished(at: index, in: context) }
    }
  }

  private func childFinished(at index: Int, in context: OperationContext) {
    let next = stateLock.withLock { () -> ChildFollowUp in
      guard settle(index) else { return .nothing }
      if policy == .failFast, !isStopping, let error = children[index].error {
        firstError = error
        return .stop
      }
      return isStopping ? .nothing : .launch
    }
    switch next {
    case .nothing: break
    case .launch: launch(in: context)
    case .stop: stop(cancelling: false)
    }
    completeIfAllSettled()
  }

  /// Marks a child as done for the group's purposes; `false` if it already was. Lock held.
  private func settle(_ index: Int) -> Bool {
    guard !isCompleted, !settled[index] else { return false }
    settled[index] = true
    settledCount += 1
    inFlight -= 1
    return true
  }

  /// Stops launching, cancels the children in flight and settles every child that will never
  /// run.
  private func stop(cancelling: Bool) {
    let launched = stateLock.withLock { () -> [(Int, AsyncOperation)] in
      if cancelling { isCancelledGroup = true }
      isStopping = true
      guard !isCompleted else { return [] }
      return (0..<nextIndex).filter { !settled[$0] }.map { ($0, children[$0]) }
    }
    finishUnlaunched()
    for (index, child) in launched where !child.cancelReportingWhetherStarted() {
      // Still waiting in its queue: it will skip its work, so the group need not wait for it.
      stateLock.withLock { _ = settle(index) }
    }
    completeIfAllSettled()
  }

  /// Children never handed to a queue are started here, cancelled, so that each one finishes
  /// (with ``ServerConnectionError/cancelled``) without running and none is left unfinished.
  private func finishUnlaunched() {
    let unlaunched = stateLock.withLock { () -> [(Int, AsyncOperation)] in
      isStopping = true
      guard !isCompleted else { return [] }
      defer { nextIndex = childCount }
      return (nextIndex..<childCount).map { index in
        inFlight += 1
        return (index, children[index])
      }
    }
    for (index, child) in unlaunched {
      child.cancel()
      child.start()
      stateLock.withLock { _ = settle(index) }
    }
  }

  private func completeIfAllSettled() {
    let claimed = stateLock.withLock { () -> Bool in
      guard !isCompleted, settledCount == childCount else { return false }
      isCompleted = true
      return true
    }
    guard claimed else { return }
    let (cancelled, error) = stateLock.withLock { (isCancelledGroup, firstError) }
    let result: Result<Output, any Error>
    if cancelled {
      result = .failure(ServerConnectionError.cancelled)
    } else if let error {
      result = .failure(error)
    } else {
      result = Result { try assemble() }
    }
    stateLock.withLock {
      children = []
      settled = []
    }
    finish(with: result)
  }
}

/// What a group does after one of its children settled.
private enum ChildFollowUp {
  case nothing
  case launch
  case stop
}
