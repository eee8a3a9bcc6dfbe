import Foundation

/// A caller's wait for a transfer whose result comes from elsewhere (a shared flight): it completes once, and `cancel()` completes it at once with a cancellation.
final class PendingTransfer: TransferHandle, @unchecked Sendable {
  typealias Completion = @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  private let lock = Lock()
  private var completion: Completion?
  private let onCancel: (@Sendable () -> Void)?

  init(completion: @escaping Completion, onCancel: (@Sendable () -> Void)? = nil) {
    self.completion = completion
    self.onCancel = onCancel
  }

  var isWaiting: Bool { lock.withLock { completion != nil } }

  /// Completes with `result` unless already completed; returns whether it did.
  @discardableResult
  func complete(_ result: Result<TransportResponse, TransportFailure>) -> Bool {
    let completion = lock.withLock {
      defer { self.completion = nil }
      return self.completion
    }
    completion?(result)
    return completion != nil
  }

  func cancel() {
    if complete(.failure(TransportFailure(kind: .cancelled, detail: "cancelled"))) {
      onCancel?()
    }
  }
}
