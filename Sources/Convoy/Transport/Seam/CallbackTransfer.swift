import Foundation

/// Turns a transfer that reports by callbacks into ``HTTPTransport/send(_:)``'s answer: how
/// Convoy's own transports, the stub and the ``CallbackHTTPTransport`` adapter meet
/// the seam.
///
/// Both forms end the wait at once when the request's ``TransferCancellation`` is tripped or the
/// task is cancelled, with ``TransportFailure/Kind/cancelled``, and stop the transfer behind it:
/// the call's deadline does not wait for a transport's thread to notice.
package enum CallbackTransfer {
  /// Waits for a transfer that completes once, with the whole answer. `start` begins it with the
  /// completion it must call, and returns what stops it.
  package nonisolated(nonsending) static func whole(
    _ request: TransportRequest,
    start: (@escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void) ->
      any TransferHandle
  ) async throws(TransportFailure) -> TransportAnswer {
    let wait = WholeWait()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        wait.begin(continuation)
        request.cancellation.whenCancelled { wait.stop() }
        wait.attach(start { wait.finish($0) })
      }
    } onCancel: {
      wait.stop()
    }
    return try TransportAnswer(result.get())
  }

  /// Waits for a transfer that streams into a receiver collecting the whole answer, within
  /// the request's ``TransportRequest/responseLimits`` and telling its
  /// ``TransportRequest/uploadProgress``: a buffered call on a transport that reports upload
  /// progress, or a body's excess, only when it streams.
  package nonisolated(nonsending) static func collected(
    _ request: TransportRequest,
    start: (any TransferReceiver) -> any StreamingTransferHandle
  ) async throws(TransportFailure) -> TransportAnswer {
    try await whole(request) { completion in
      let receiver = BufferingReceiver(
        limits: request.responseLimits, uploadProgress: request.uploadProgress,
        completion: completion)
      let handle = start(receiver)
      receiver.attach(handle)
      return handle
    }
  }

  /// Waits for the head of a transfer that streams into a buffer sized by the request's
  /// ``TransportRequest/answerDelivery``, and returns the answer with its body still flowing.
  /// `start` begins the transfer, feeding the receiver it is given.
  package nonisolated(nonsending) static func streamed(
    _ request: TransportRequest,
    start: (any TransferReceiver) -> any StreamingTransferHandle
  ) async throws(TransportFailure) -> TransportAnswer {
    let buffer: StreamBuffer
    switch request.answerDelivery {
    case .streamed(let bufferSize, let spillsToDisk):
      buffer = StreamBuffer(
        capacity: bufferSize, spillsToDisk: spillsToDisk, uploadProgress: request.uploadProgress)
    case .whole:
      buffer = StreamBuffer(
        capacity: wholeBufferSize, uploadProgress: request.uploadProgress)
    }
    request.cancellation.whenCancelled { buffer.cancel() }
    buffer.start { start(buffer) }
    let head = try await buffer.head().get()
    return TransportAnswer(head: head, body: TransportBody(flowing: buffer))
  }

  /// How much of a body read whole may wait in a stream's buffer while it is collected.
  static let wholeBufferSize = 1 << 20
}

/// The one continuation of ``CallbackTransfer/whole(_:start:)``, resumed by whichever comes first:
/// the transfer's completion or a stop.
private final class WholeWait: @unchecked Sendable {
  private let lock = Lock()
  private var continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>?
  private var handle: (any TransferHandle)?
  private var isStopped = false

  func begin(
    _ continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>
  ) {
    let stoppedAlready = lock.withLock { () -> Bool in
      if !isStopped { self.continuation = continuation }
      return isStopped
    }
    if stoppedAlready { continuation.resume(returning: .failure(Self.cancelled)) }
  }

  static let cancelled = TransportFailure(kind: .cancelled, detail: "cancelled by the caller")

  func attach(_ handle: any TransferHandle) {
    let stopNow = lock.withLock { () -> Bool in
      self.handle = handle
      return isStopped
    }
    if stopNow { handle.cancel() }
  }

  func finish(_ result: Result<TransportResponse, TransportFailure>) {
    let taken = lock.withLock {
      () -> CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>? in
      defer {
        continuation = nil
        handle = nil
      }
      return continuation
    }
    taken?.resume(returning: result)
  }

  func stop() {
    let (taken, handle) = lock.withLock {
      () -> (
        CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>?,
        (any TransferHandle)?
      ) in
      isStopped = true
      defer {
        continuation = nil
        self.handle = nil
      }
      return (continuation, self.handle)
    }
    taken?.resume(returning: .failure(Self.cancelled))
    handle?.cancel()
  }
}
