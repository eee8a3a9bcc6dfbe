import Foundation

/// An ``AsyncOperation`` that produces a typed value or an error.
///
/// Subclasses override ``AsyncOperation/execute()`` and end with ``finish(with:)``. Operations
/// compose into chains (``then(_:)``, ``map(_:)``) and groups (``GroupOperation``) whose outputs
/// keep their types, so consumers never cast.
///
/// ```swift
/// final class FileSizeOperation: ResultOperation<Int> {
///   let file: URL
///
///   init(file: URL) {
///     self.file = file
///     super.init()
///   }
///
///   override func execute() {
///     DispatchQueue.global().async {
///       self.finish(with: Result { try Data(contentsOf: self.file).count })
///     }
///   }
/// }
/// ```
open class ResultOperation<Output: Sendable>: AsyncOperation, @unchecked Sendable {
  private var storedResult: Result<Output, any Error>?

  /// Creates an operation that is ready to be added to a queue.
  public override init() {
    super.init()
  }

  /// The outcome: `nil` until the operation finished, then its value or error. An operation
  /// that was cancelled or skipped because a dependency failed holds that error.
  public var result: Result<Output, any Error>? {
    stateLock.withLock {
      guard state == .finished else { return nil }
      if let storedResult { return storedResult }
      return .failure(finalErrorUnlocked ?? OperationError.finishedWithoutResult)
    }
  }

  /// Finishes with `result`. Only the first finishing call counts.
  public final func finish(with result: Result<Output, any Error>) {
    let failure: (any Error)?
    switch result {
    case .success: failure = nil
    case .failure(let error): failure = error
    }
    finish(failure: failure) { storedResult = result }
  }

  /// The result, or a failure saying there is none yet, for composites that read finished
  /// children.
  var settledResult: Result<Output, any Error> {
    result ?? .failure(ServerConnectionError.cancelled)
  }

  /// The chain that `then` and `map` extend: a new one-step chain for a plain operation; a
  /// chain that has not started returns itself, so long chains stay flat.
  func chainForExtension() -> ChainOperation<Output> {
    let slot = ChainSlot<Output>()
    let step = ChainStep(producesOperation: true) { [self] in
      .operation(self) { slot.put(self.settledResult) }
    }
    return ChainOperation(plan: ChainPlan(first: step), stepCount: 1, last: slot)
  }
}

/// Misuse of an operation that Convoy reports as an error rather than a crash.
public enum OperationError: Error, Sendable, Hashable {
  /// A ``ResultOperation`` called `finish()` instead of `finish(with:)` and so has no value.
  case finishedWithoutResult
  /// An operation was run a second time; an operation runs once (a ``Job`` builds new ones).
  case alreadyRun
}
