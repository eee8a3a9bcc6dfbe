import Convoy
import Foundation

/// An operation whose work ends on another thread after `delay`, counting how often it ran and
/// stopping early when cancelled.
final class TimerOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
  private let delay: Double
  private let outcome: @Sendable () throws -> Output
  private let lock = NSLock()
  private var executions = 0

  init(delay: Double = 0.001, _ outcome: @escaping @Sendable () throws -> Output) {
    self.delay = delay
    self.outcome = outcome
    super.init()
  }

  var executionCount: Int { lock.withLock { executions } }

  override func execute() {
    lock.withLock { executions += 1 }
    let outcome = self.outcome
    // Defended: this is the work itself, ending on another thread a moment later as a transfer
    // would; no test waits on it for a condition.
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
      finish(with: Result { try outcome() })
    }
    onCancel { [self] in
      // The work stops a little later, as a transfer would (defended like the work above).
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
        self.finish(with: .failure(TestError.stopped))
      }
    }
  }
}

enum TestError: Error, Equatable {
  case boom
  case stopped
}

extension Result {
  var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }

  var successValue: Success? {
    if case .success(let value) = self { return value }
    return nil
  }
}

extension Optional where Wrapped == any Error {
  var isCancelledError: Bool {
    guard let self else { return false }
    return (self as? ServerConnectionError) == .cancelled
  }
}

/// Adds operations one by one: `addOperations(_:waitUntilFinished:)` is unavailable in async code.
func enqueue(_ operations: [Operation], on queue: OperationQueue) {
  for operation in operations { queue.addOperation(operation) }
}

/// Waits until `queue` has no operations left, polling, at most `seconds`.
func drained(_ queue: OperationQueue, within seconds: Double = 10) async -> Bool {
  await eventually(within: seconds) { queue.operationCount == 0 }
}
