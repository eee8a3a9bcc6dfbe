import Foundation

/// Cancels the work it was returned for: a call, or a whole job with every operation and transfer.
///
/// Cancelling is idempotent and safe from any thread, including from inside the work's own
/// completion; after the work completed it does nothing.
public final class JobToken: Sendable, Hashable {
  private struct State {
    var isCancelled = false
    var cancelActions: [@Sendable () -> Void] = []
    var progress: JobProgressTracker?
  }

  private let state = Locked(State())

  /// Creates a token; the work it is returned for registers what cancelling it does.
  public init() {}

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool {
    state.withLock { $0.isCancelled }
  }

  /// How far the job got; `0/0` for a single call made with `execute`, before it started.
  public var progress: JobProgress {
    state.withLock { $0.progress }?.current ?? JobProgress(completedUnitCount: 0, totalUnitCount: 0)
  }

  /// Cancels the work. The work's completion runs once, with a cancellation error, unless it had
  /// already run.
  public func cancel() {
    let actions = state.withLock { state -> [@Sendable () -> Void] in
      guard !state.isCancelled else { return [] }
      state.isCancelled = true
      defer { state.cancelActions = [] }
      return state.cancelActions
    }
    for action in actions { action() }
  }

  /// Registers what cancelling does; runs it at once if the token is already cancelled.
  package func onCancel(_ action: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      if state.isCancelled { return true }
      state.cancelActions.append(action)
      return false
    }
    if runNow { action() }
  }

  /// Connects the token to the progress of the job it was returned for.
  func attach(_ progress: JobProgressTracker) {
    state.withLock { $0.progress = progress }
  }

  /// Identity equality: two tokens are equal only if they are the same token.
  public static func == (lhs: JobToken, rhs: JobToken) -> Bool { lhs === rhs }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
