import Foundation

/// A transport written with two callbacks instead of one `async` function: it gets
/// ``HTTPTransport/send(_:)`` from them. ConvoyTesting's stubs and the tests' scripted transports
/// are written this way; apps and transports implement `send(_:)` (Docs/Transports.md).
///
/// A transport on this protocol cannot send a streamed request body unless its methods read
/// ``TransportRequest/bodyStream``.
package protocol CallbackHTTPTransport: HTTPTransport {
  /// Starts sending `request`.
  ///
  /// - Parameters:
  ///   - request: What to send.
  ///   - completion: Called exactly once, on any thread: with the answer, or with a
  ///     ``TransportFailure`` (kind ``TransportFailure/Kind/cancelled`` after `cancel()`).
  /// - Returns: A handle that cancels the transfer.
  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle

  /// Starts sending `request` and hands the answer to `receiver` as it arrives: the head once it
  /// is complete, then the body piece by piece, pausing while the receiver asks it to.
  ///
  /// The default implementation receives the whole answer with
  /// ``startTransfer(_:completion:)`` and then delivers it in pieces.
  func startStreamingTransfer(_ request: TransportRequest, receiver: any TransferReceiver)
    -> any StreamingTransferHandle
}

extension CallbackHTTPTransport {
  /// Receives the whole answer, then hands it to `receiver` in pieces of at most 64 KiB,
  /// honouring its pauses.
  package func startStreamingTransfer(_ request: TransportRequest, receiver: any TransferReceiver)
    -> any StreamingTransferHandle
  {
    BufferedStreamingTransfer.replaying(to: receiver) { startTransfer(request, completion: $0) }
  }

  /// Sends `request` through ``startTransfer(_:completion:)`` when the answer is read whole
  /// without upload progress, else through ``startStreamingTransfer(_:receiver:)``.
  package nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    if request.answerDelivery == .whole, request.uploadProgress == nil {
      return try await CallbackTransfer.whole(request) { startTransfer(request, completion: $0) }
    }
    return try await CallbackTransfer.streamed(request) {
      startStreamingTransfer(request, receiver: $0)
    }
  }
}
