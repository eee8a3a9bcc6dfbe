import Foundation

/// An operation whose output an `async` closure computes: a step of a job that awaits something
/// other than one request (discovery, polling, a browser coming back).
///
/// Cancelling the operation cancels the task; a `CancellationError` it throws becomes
/// ``ServerConnectionError/cancelled``.
final class TaskResultOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
  private let body: @Sendable () async throws -> Output

  init(_ body: @escaping @Sendable () async throws -> Output) {
    self.body = body
    super.init()
  }

  override func execute() {
    let task = Task { [self, body] in
      do {
        finish(with: .success(try await body()))
      } catch let error where error.isCancellation {
        finish(with: .failure(ServerConnectionError.cancelled))
      } catch {
        finish(with: .failure(error))
      }
    }
    onCancel { task.cancel() }
  }
}
