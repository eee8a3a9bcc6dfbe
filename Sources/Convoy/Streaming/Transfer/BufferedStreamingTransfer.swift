import Foundation

/// Replays a buffered answer to a ``TransferReceiver`` as if it streamed: in pieces of at most
/// 64 KiB, honouring the receiver's pauses.
package final class BufferedStreamingTransfer: StreamingTransferHandle, @unchecked Sendable {
  private static let pieceSize = 64 << 10

  private let receiver: any TransferReceiver
  private let lock = Lock()
  private var inner: (any TransferHandle)?
  private var pending: (body: Data, offset: Int, metrics: TransferMetrics)?
  private var trailers = HTTPHeaders()
  private var isDelivering = false
  private var isPaused = false
  /// A resume that came while a piece was being delivered, for the pump to honour.
  private var isResumeRequested = false
  private var isOver = false

  /// Starts a buffered transfer with `startTransfer` and replays its answer to `receiver`.
  package static func replaying(
    to receiver: any TransferReceiver,
    startTransfer: (
      @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> any TransferHandle
  ) -> BufferedStreamingTransfer {
    let replay = BufferedStreamingTransfer(receiver: receiver)
    replay.attach(startTransfer { replay.deliver($0) })
    return replay
  }

  private init(receiver: any TransferReceiver) {
    self.receiver = receiver
  }

  private func attach(_ handle: any TransferHandle) {
    let cancelledAlready = lock.withLock {
      inner = handle
      return isOver && pending == nil
    }
    if cancelledAlready { handle.cancel() }
  }

  private func deliver(_ result: Result<TransportResponse, TransportFailure>) {
    switch result {
    case .failure(let failure):
      guard claimEnd() else { return }
      receiver.transferDidComplete(.failure(failure))
    case .success(let response):
      let proceed = lock.withLock { () -> Bool in
        guard !isOver else { return false }
        pending = (response.data, 0, response.metrics)
        trailers = response.trailers
        isDelivering = true
        return true
      }
      guard proceed else { return }
      receiver.transferDidReceiveHead(response.head)
      pump()
    }
  }

  package func resumeReceiving() {
    let shouldPump = lock.withLock { () -> Bool in
      if isDelivering {
        isResumeRequested = true
        return false
      }
      guard isPaused, pending != nil else { return false }
      isPaused = false
      isDelivering = true
      return true
    }
    if shouldPump { pump() }
  }

  package func cancel() {
    let (handle, wasOver) = lock.withLock { () -> ((any TransferHandle)?, Bool) in
      defer {
        isOver = true
        pending = nil
      }
      return (inner, isOver)
    }
    guard !wasOver else { return }
    handle?.cancel()
    receiver.transferDidComplete(
      .failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
  }

  /// Delivers pieces until the body is over or the receiver pauses; one thread at a time.
  private func pump() {
    while true {
      let next = lock.withLock { () -> (piece: Data?, metrics: TransferMetrics?)? in
        guard !isOver, let current = pending else {
          isDelivering = false
          return nil
        }
        guard current.offset < current.body.count else {
          isOver = true
          pending = nil
          isDelivering = false
          return (nil, current.metrics)
        }
        let end = min(current.offset + Self.pieceSize, current.body.count)
        pending?.offset = end
        return (current.body.subdata(in: current.offset..<end), nil)
      }
      guard let next else { return }
      if let metrics = next.metrics {
        let trailers = lock.withLock { self.trailers }
        if !trailers.isEmpty { receiver.transferDidReceiveTrailers(trailers) }
        receiver.transferDidComplete(.success(metrics))
        return
      }
      if let piece = next.piece, receiver.transferDidReceiveBody(piece) == .pause {
        let stop = lock.withLock { () -> Bool in
          // A resume that came meanwhile found `isDelivering` set and left the pumping to us.
          if isResumeRequested {
            isResumeRequested = false
            return false
          }
          isPaused = true
          isDelivering = false
          return true
        }
        if stop { return }
      }
    }
  }

  private func claimEnd() -> Bool {
    lock.withLock {
      defer { isOver = true }
      return !isOver
    }
  }
}
