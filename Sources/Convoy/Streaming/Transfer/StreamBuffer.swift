import Foundation

/// Receives one streamed transfer and holds what its reader has not taken yet, up to a bound.
///
/// The transport hands it the head and body pieces on its own thread; one reader takes them with
/// ``head()`` and ``nextChunk()``. When more than `capacity` bytes wait, the transfer is paused,
/// and it is resumed once the reader has taken the buffer below half of that, so memory per
/// stream stays near `capacity` plus one piece, however slow the reader.
///
/// A transport that cannot pause (FoundationNetworking's `URLSession`) keeps sending. A stream
/// then fails its reader past ``overflowLimit``; a buffer that ``spillsToDisk`` (a download to a
/// file, whose reader must never be refused) writes what is past the limit to a file of its own
/// instead, and hands it out after what waits in memory, in order.
final class StreamBuffer: TransferReceiver, @unchecked Sendable {
  let capacity: Int
  /// Whether bytes past ``overflowLimit`` go to a temporary file instead of ending the stream.
  let spillsToDisk: Bool

  private let lock = Lock()
  private var handle: (any StreamingTransferHandle)?
  private var head: HTTPResponse?
  private var headWaiter: CheckedContinuation<Result<HTTPResponse, TransportFailure>, Never>?
  private var chunks: [Data] = []
  private var firstChunk = 0
  private var bufferedBytes = 0
  private var isPaused = false
  private var end: Result<TransferMetrics, TransportFailure>?
  private var bodyWaiter: CheckedContinuation<Void, Never>?
  private var endObservers: [@Sendable (Result<TransferMetrics, TransportFailure>) -> Void] = []
  private var bytesDelivered: Int64 = 0
  private var hasReader = false
  private var closedBy: Closing?
  /// Bytes past the limit, on disk, while some of them are unread; guarded by `lock`.
  private var spill: StreamSpill?
  private var receivedTrailers = HTTPHeaders()

  /// Beyond this many waiting bytes the stream fails with
  /// ``TransportFailure/Kind/readerTooSlow``: only a transport that cannot pause gets here, since
  /// one that can stops after the piece that filled the buffer.
  let overflowLimit: Int

  /// Told how much of the request body went out.
  private let uploadProgress: (@Sendable (TransferProgress) -> Void)?

  init(
    capacity: Int, spillsToDisk: Bool = false,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
  ) {
    self.uploadProgress = uploadProgress
    self.capacity = max(capacity, 1)
    self.spillsToDisk = spillsToDisk
    self.overflowLimit = self.capacity + max(self.capacity, 4 << 20)
  }

  /// Starts the transfer with `begin`, which feeds this buffer and returns the transfer's handle.
  func start(_ begin: () -> any StreamingTransferHandle) {
    let handle = begin()
    let isOver = lock.withLock {
      self.handle = handle
      return end != nil
    }
    if isOver { handle.cancel() }
  }

  /// The buffer `answer`'s body flows into: its own when a transport streamed it, else one
  /// holding the whole body, already ended.
  static func reading(_ answer: TransportAnswer, capacity: Int, spillsToDisk: Bool) -> StreamBuffer
  {
    switch answer.body.storage {
    case .flowing(let buffer):
      return buffer
    case .complete(let data, let metrics, let trailers):
      let buffer = StreamBuffer(capacity: max(capacity, data.count), spillsToDisk: spillsToDisk)
      buffer.transferDidReceiveHead(answer.head)
      if !data.isEmpty { _ = buffer.transferDidReceiveBody(data) }
      if !trailers.isEmpty { buffer.transferDidReceiveTrailers(trailers) }
      buffer.transferDidComplete(.success(metrics))
      return buffer
    }
  }

  /// Stops the transfer; a reader waiting or reading later gets ``TransportFailure/Kind/cancelled``
  /// unless the body had already ended.
  func cancel() {
    let handle = lock.withLock { end == nil ? self.handle : nil }
    handle?.cancel()
    transferDidComplete(
      .failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
  }

  /// Why a transfer was closed before its end by the stream's own values going away.
  enum Closing: Sendable {
    /// A loop (an iterator) read the body and stopped before its end.
    case readerLeft
    /// The stream was let go with no iterator ever made: nothing read it.
    case dropped
  }

  /// Records that an iterator reads the body, so that its end is not taken for a drop.
  func noteReader() {
    lock.withLock { hasReader = true }
  }

  /// Stops the transfer if it is still running; a reader that left early needs nothing more.
  /// A drop by a stream whose body some iterator read counts as the reader leaving.
  func closeIfOpen(_ closing: Closing) {
    let isOpen = lock.withLock { () -> Bool in
      guard end == nil else { return false }
      closedBy = closing == .dropped && hasReader ? .readerLeft : closing
      return true
    }
    guard isOpen else { return }
    cancel()
  }

  /// How the transfer was closed early by the stream's values going away, `nil` when it was not.
  var closing: Closing? { lock.withLock { closedBy } }

  /// Runs `action` once the transfer is over (at once if it already is).
  func whenOver(_ action: @escaping @Sendable (Result<TransferMetrics, TransportFailure>) -> Void) {
    let ended = lock.withLock { () -> Result<TransferMetrics, TransportFailure>? in
      if end == nil { endObservers.append(action) }
      return end
    }
    if let ended { action(ended) }
  }

  /// The transfer's metrics once the body has ended, `nil` before and after a failure.
  var metrics: TransferMetrics? {
    lock.withLock {
      guard case .success(let metrics) = end else { return nil }
      return metrics
    }
  }

  /// Body bytes handed to the reader so far.
  var deliveredByteCount: Int64 { lock.withLock { bytesDelivered } }

  // MARK: - Reader

  /// Waits for the head; cancelling the task cancels the transfer.
  func head() async -> Result<HTTPResponse, TransportFailure> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = lock.withLock { () -> Result<HTTPResponse, TransportFailure>? in
          if let head { return .success(head) }
          if case .failure(let failure) = end { return .failure(failure) }
          if end != nil {
            return .failure(TransportFailure(kind: .badServerResponse, detail: "no answer head"))
          }
          headWaiter = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      cancel()
    }
  }

  /// The next piece of the body, `nil` at its end.
  ///
  /// - Throws: The ``TransportFailure`` that ended the transfer early.
  func nextChunk() async throws(TransportFailure) -> Data? {
    while true {
      // Checked before handing out a buffered piece too: a transport that cannot pause
      // (FoundationNetworking) may have buffered megabytes, and a cancelled reader must stop at
      // once rather than drain them (a cancelled download ran to its end that way).
      guard !Task.isCancelled else {
        cancel()
        throw TransportFailure(kind: .cancelled, detail: "cancelled by the caller")
      }
      let (step, resume) = lock.withLock { () -> (ReadStep, (any StreamingTransferHandle)?) in
        if firstChunk < chunks.count {
          let chunk = chunks[firstChunk]
          chunks[firstChunk] = Data()
          firstChunk += 1
          if firstChunk == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            firstChunk = 0
          }
          bufferedBytes -= chunk.count
          bytesDelivered += Int64(chunk.count)
          var resume: (any StreamingTransferHandle)?
          if isPaused, bufferedBytes <= capacity / 2 {
            isPaused = false
            resume = handle
          }
          return (.chunk(chunk), resume)
        }
        if let spill {
          // Spilled bytes come after every piece that waited in memory, and before any that
          // arrives once they are all read.
          do throws(TransportFailure) {
            if let chunk = try spill.read(upTo: capacity) {
              bytesDelivered += Int64(chunk.count)
              return (.chunk(chunk), nil)
            }
          } catch {
            return (.failed(error), nil)
          }
          self.spill = nil
          // A transport that does pause (none gets here today) is resumed once all is read.
          if isPaused {
            isPaused = false
            return (.wait, handle)
          }
        }
        switch end {
        case .success: return (.finished, nil)
        case .failure(let failure): return (.failed(failure), nil)
        case nil: return (.wait, nil)
        }
      }
      resume?.resumeReceiving()
      switch step {
      case .chunk(let chunk): return chunk
      case .finished: return nil
      case .failed(let failure): throw failure
      case .wait:
        await waitForMore()
      }
    }
  }

  /// Reads at most `limit` bytes of the body, for an error's excerpt, then stops the transfer.
  func readExcerpt(limit: Int) async -> Data {
    var excerpt = Data()
    while excerpt.count < limit, let chunk = try? await nextChunk() {
      excerpt.append(chunk.prefix(limit - excerpt.count))
    }
    cancel()
    return excerpt
  }

  private enum ReadStep {
    case chunk(Data)
    case finished
    case failed(TransportFailure)
    case wait
  }

  private func waitForMore() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = lock.withLock { () -> Bool in
          guard firstChunk >= chunks.count, spill == nil, end == nil else { return true }
          bodyWaiter = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      cancel()
    }
  }

  // MARK: - TransferReceiver (the transport's thread)

  func transferDidReceiveHead(_ head: HTTPResponse) {
    let waiter = lock.withLock {
      () -> CheckedContinuation<Result<HTTPResponse, TransportFailure>, Never>? in
      guard end == nil else { return nil }
      self.head = head
      defer { headWaiter = nil }
      return headWaiter
    }
    waiter?.resume(returning: .success(head))
  }

  func transferDidReceiveTrailers(_ trailers: HTTPHeaders) {
    lock.withLock { receivedTrailers = trailers }
  }

  /// The trailer fields that followed the body, once the transport reported them.
  var trailers: HTTPHeaders { lock.withLock { receivedTrailers } }

  func transferDidSendBody(_ progress: TransferProgress) {
    uploadProgress?(progress)
  }

  func transferDidReceiveBody(_ bytes: Data) -> TransferFlow {
    let (flow, waiter, overflow) = lock.withLock {
      () -> (TransferFlow, CheckedContinuation<Void, Never>?, TransportFailure?) in
      guard end == nil else { return (.proceed, nil, nil) }
      if spill != nil || (spillsToDisk && bufferedBytes + bytes.count > overflowLimit) {
        // Once bytes are on disk, later ones follow them there, to keep the order.
        do throws(TransportFailure) {
          if spill == nil { spill = try StreamSpill() }
          try spill?.write(bytes)
        } catch {
          return (.pause, nil, error)
        }
        isPaused = true
        defer { bodyWaiter = nil }
        return (.pause, bodyWaiter, nil)
      }
      guard bufferedBytes + bytes.count <= overflowLimit else {
        return (
          .pause, nil,
          TransportFailure(
            kind: .readerTooSlow,
            detail:
              "more than \(overflowLimit) bytes waited for a reader the transport cannot pause")
        )
      }
      chunks.append(bytes)
      bufferedBytes += bytes.count
      defer { bodyWaiter = nil }
      if bufferedBytes >= capacity { isPaused = true }
      return (isPaused ? .pause : .proceed, bodyWaiter, nil)
    }
    waiter?.resume()
    if let overflow {
      let handle = lock.withLock { self.handle }
      // The failure is settled before the transfer is stopped: a stopped transfer reports
      // `cancelled`, maybe from another thread at once (URLSession does), which must not win.
      transferDidComplete(.failure(overflow))
      handle?.cancel()
    }
    return flow
  }

  func transferDidComplete(_ result: Result<TransferMetrics, TransportFailure>) {
    let claimed = lock.withLock { () -> Claimed? in
      guard end == nil else { return nil }
      end = result
      if case .failure(let failure) = result, failure.kind == .cancelled {
        // The reader stopped reading: what waits is worth nothing. After any other failure the
        // reader still gets every byte that arrived, then the failure.
        chunks.removeAll()
        firstChunk = 0
        bufferedBytes = 0
        spill = nil
      }
      defer {
        headWaiter = nil
        bodyWaiter = nil
        endObservers = []
        handle = nil
      }
      return Claimed(headWaiter: headWaiter, bodyWaiter: bodyWaiter, observers: endObservers)
    }
    guard let claimed else { return }
    if let headWaiter = claimed.headWaiter {
      switch result {
      case .failure(let failure): headWaiter.resume(returning: .failure(failure))
      case .success:
        headWaiter.resume(
          returning: .failure(TransportFailure(kind: .badServerResponse, detail: "no answer head")))
      }
    }
    claimed.bodyWaiter?.resume()
    for observer in claimed.observers { observer(result) }
  }

  private struct Claimed {
    var headWaiter: CheckedContinuation<Result<HTTPResponse, TransportFailure>, Never>?
    var bodyWaiter: CheckedContinuation<Void, Never>?
    var observers: [@Sendable (Result<TransferMetrics, TransportFailure>) -> Void]
  }
}
