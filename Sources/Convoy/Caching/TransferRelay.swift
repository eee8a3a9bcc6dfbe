import Foundation

/// A handle for a transfer that may be carried by more than one underlying transfer in turn
/// (a revalidation followed by an unconditional reload): `cancel()` reaches whichever runs.
final class TransferRelay: TransferHandle, @unchecked Sendable {
  private let lock = Lock()
  private var current: (any TransferHandle)?
  private var currentAttempt = -1
  private var cancelled = false

  var isCancelled: Bool { lock.withLock { cancelled } }

  /// Makes `handle`, started for `attempt`, the one `cancel()` reaches. An older attempt's
  /// handle arriving late (a transport that completed synchronously) does not replace a newer
  /// one.
  func attach(_ handle: any TransferHandle, attempt: Int) {
    let cancelNow = lock.withLock {
      guard attempt > currentAttempt else { return false }
      current = handle
      currentAttempt = attempt
      return cancelled
    }
    if cancelNow { handle.cancel() }
  }

  func cancel() {
    let handle = lock.withLock {
      cancelled = true
      return current
    }
    handle?.cancel()
  }
}

/// A transfer whose result is already known or comes from elsewhere (a cache hit, a shared
/// flight): it completes once, and `cancel()` completes it at once with a cancellation.
final class PendingTransfer: TransferHandle, @unchecked Sendable {
  typealias Completion = @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  private let lock = Lock()
  private var completion: Completion?
  private let onCancel: (@Sendable () -> Void)?

  init(completion: @escaping Completion, onCancel: (@Sendable () -> Void)? = nil) {
    self.completion = completion
    self.onCancel = onCancel
  }

  /// Completes on another thread: a transport that called back before `startTransfer` returned
  /// would race the caller still wiring up its handle.
  static func delivering(
    _ result: Result<TransportResponse, TransportFailure>, to completion: @escaping Completion
  ) -> PendingTransfer {
    let transfer = PendingTransfer(completion: completion)
    DispatchQueue.global().async { transfer.complete(result) }
    return transfer
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
