/// An operation built by hand, run as a job by ``ServerConnection/run(_:completionQueue:progress:completion:)-(ResultOperation<Output>,_,_,_)``.
///
/// An operation runs once, so the job hands it out once; running the same job again fails with
/// ``OperationError/alreadyRun`` (a ``Job`` type builds fresh operations on every run).
struct OperationJob<Output: Sendable>: Job {
  private let operation: Locked<ResultOperation<Output>?>
  private let name: String

  init(_ operation: ResultOperation<Output>) {
    self.operation = Locked(operation)
    self.name = String(describing: type(of: operation))
  }

  func makeOperation(on connection: ServerConnection) -> ResultOperation<Output> {
    let operation = operation.withLock { stored in
      defer { stored = nil }
      return stored
    }
    return operation ?? FailedOperation(OperationError.alreadyRun)
  }
}

/// Finishes at once with an error.
private final class FailedOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable
{
  private let failure: any Error

  init(_ failure: any Error) {
    self.failure = failure
    super.init()
  }

  override func execute() {
    finish(with: .failure(failure))
  }
}
