import Foundation

/// An `Operation` whose work ends later than ``execute()`` returns: a transfer, a timer, children.
///
/// The state (ready → executing → finished) lives behind a lock, and every change is announced
/// with `willChangeValue`/`didChangeValue` *after* the overridden property already reports it:
/// swift-corelibs-foundation's `OperationQueue` reacts only to `didChangeValue` and hangs if it
/// never sees `isFinished` turn true.
///
/// Subclasses override ``execute()`` and call ``finish()`` (or ``finish(failingWith:)``) once
/// the work has really stopped. Cancellation is cooperative: register what stops the work with
/// ``onCancel(_:)``.
///
/// What happens when:
/// - cancelled before start: the queue still calls `start()` (Foundation does), ``execute()``
///   is never called, and the operation finishes with ``ServerConnectionError/cancelled``;
/// - cancelled while executing: the ``onCancel(_:)`` actions run; the operation finishes when
///   the work calls ``finish()``, not before;
/// - cancelled after finishing: nothing happens.
///
/// Downstream of a failure: when a dependency added with `addDependency` finished with an
/// ``error`` (or is a plain `Operation` that was cancelled), Foundation still starts this
/// operation; it then skips ``execute()`` and finishes with the dependency's error. `isReady` is
/// left to Foundation.
open class AsyncOperation: Operation, @unchecked Sendable {
  enum State {
    case ready
    case executing
    case finished
  }

  /// Everything mutable, guarded by `stateLock`; subclasses in this module store their own
  /// results under the same lock so that a result and `isFinished` change together.
  let stateLock = Lock()
  var state = State.ready
  private var isFinishing = false
  private var isCancelRequested = false
  private var wasStartedWhenCancelled = false
  private(set) var finalErrorUnlocked: (any Error)?
  private var cancelActions: [@Sendable () -> Void] = []
  private var finishAction: (@Sendable () -> Void)?
  private var operationContext: OperationContext?

  /// Creates an operation that is ready to be added to a queue.
  public override init() {
    super.init()
  }

  /// Always `true`: the work ends when ``finish()`` is called, not when ``execute()`` returns.
  open override var isAsynchronous: Bool { true }

  /// Whether ``execute()`` was called and the operation has not finished yet.
  open override var isExecuting: Bool {
    stateLock.withLock { state == .executing }
  }

  /// Whether the operation finished, whatever the outcome.
  open override var isFinished: Bool {
    stateLock.withLock { state == .finished }
  }

  /// The error the operation finished with; `nil` while it runs and after a success.
  public var error: (any Error)? {
    stateLock.withLock { finalErrorUnlocked }
  }

  /// Starts the operation: runs ``execute()``, or finishes at once without it when the operation
  /// was cancelled or a dependency failed. Calls after the first do nothing.
  public final override func start() {
    willChangeValue(forKey: "isExecuting")
    let (began, cancelled) = stateLock.withLock { () -> (Bool, Bool) in
      guard state == .ready else { return (false, false) }
      state = .executing
      return (true, isCancelRequested)
    }
    didChangeValue(forKey: "isExecuting")
    guard began else { return }
    if let reason = cancelled ? ServerConnectionError.cancelled : upstreamFailure() {
      skipExecution()
      finish(failure: reason) {}
    } else {
      execute()
    }
  }

  /// Does the work. Override it, and call ``finish()`` when the work has stopped; the default
  /// finishes at once.
  open func execute() {
    finish()
  }

  /// Marks the operation finished successfully. Only the first call of ``finish()`` or
  /// ``finish(failingWith:)`` counts, and only once the operation has started.
  public final func finish() {
    finish(failure: nil) {}
  }

  /// Marks the operation finished with `error`. Only the first finishing call counts.
  public final func finish(failingWith error: any Error) {
    finish(failure: error) {}
  }

  /// Cancels the operation: it will not start its work, or the ``onCancel(_:)`` actions stop the
  /// work in progress. Overrides must call `super.cancel()`.
  open override func cancel() {
    let actions = stateLock.withLock { () -> [@Sendable () -> Void] in
      guard !isCancelRequested, state != .finished else { return [] }
      isCancelRequested = true
      wasStartedWhenCancelled = state != .ready
      guard state == .executing else { return [] }
      defer { cancelActions = [] }
      return cancelActions
    }
    super.cancel()
    for action in actions { action() }
  }

  /// Registers what stops the work in progress. The action runs once, on the cancelling thread:
  /// at once if the operation is already cancelled, never if it finishes first.
  ///
  /// Register from ``execute()``, after the work began, so that no cancellation can fall between
  /// starting the work and being able to stop it.
  public final func onCancel(_ action: @escaping @Sendable () -> Void) {
    let runNow = stateLock.withLock { () -> Bool in
      guard state != .finished else { return false }
      if isCancelRequested { return true }
      cancelActions.append(action)
      return false
    }
    if runNow { action() }
  }

  // MARK: - Module internals

  /// The job this operation belongs to, or `nil` when it runs on a queue of the caller's own.
  var context: OperationContext? {
    stateLock.withLock { operationContext }
  }

  /// Whether this operation's own completion is one unit of job progress; composites count their
  /// children instead.
  var countsAsProgressUnit: Bool { true }

  /// Whether cancellation was requested, read under the lock that `start()` also uses.
  var isCancellationRequested: Bool {
    stateLock.withLock { isCancelRequested }
  }

  /// Called once the operation finished, before anyone is told: network operations give their
  /// slot back here, so that the slot is free by the time a job hears of the end.
  func didFinish() {}

  /// Called instead of ``execute()`` when the operation is skipped; composites finish the
  /// children they never handed to a queue.
  func skipExecution() {}

  /// Prepares the operation to be enqueued by a job or a composite.
  func prepare(context: OperationContext, whenFinished action: (@Sendable () -> Void)?) {
    stateLock.withLock {
      operationContext = context
      finishAction = action
    }
  }

  /// Cancels, and tells whether the work may have begun: `false` means `execute()` will never
  /// run, so nothing has to be waited for.
  func cancelReportingWhetherStarted() -> Bool {
    cancel()
    return stateLock.withLock { state == .finished || wasStartedWhenCancelled }
  }

  /// The one way an operation finishes. `store` runs under the state lock at the moment the
  /// state becomes finished, so a subclass's result appears together with `isFinished`.
  func finish(failure: (any Error)?, store: () -> Void) {
    let claimed = stateLock.withLock { () -> Bool in
      guard state == .executing, !isFinishing else { return false }
      isFinishing = true
      return true
    }
    guard claimed else { return }
    willChangeValue(forKey: "isExecuting")
    willChangeValue(forKey: "isFinished")
    let (action, context) = stateLock.withLock {
      () -> ((@Sendable () -> Void)?, OperationContext?) in
      state = .finished
      finalErrorUnlocked = failure
      store()
      cancelActions = []
      defer { finishAction = nil }
      return (finishAction, operationContext)
    }
    didFinish()
    // Linux's queue acts on these two calls only, and only after the properties changed.
    didChangeValue(forKey: "isExecuting")
    didChangeValue(forKey: "isFinished")
    if countsAsProgressUnit { context?.progress?.completeUnit() }
    action?()
  }

  private func upstreamFailure() -> (any Error)? {
    for dependency in dependencies {
      if let operation = dependency as? AsyncOperation {
        if let error = operation.error { return error }
      } else if dependency.isCancelled {
        return ServerConnectionError.cancelled
      }
    }
    return nil
  }
}
