import Foundation

/// The frames waiting to go out on a WebSocket, and their writing.
///
/// Whoever queues a frame while nothing is being written writes it at once, on its own thread,
/// as much as the socket takes; what the socket does not take waits for the channel's
/// ``WebSocketChannelEvent/writable``. A message's `send` returns once its frame is queued (or
/// written), so a sender waits for the network only when the queue already holds `limit`
/// bytes: then ``waitForRoom()`` holds it back (back-pressure instead of memory growing). Control frames never wait: a pong or a close must
/// not queue behind data the server is slow to read. Only the latest pong is kept (RFC 6455
/// §5.5.3 lets an endpoint answer just the most recent ping), so a server's ping flood cannot
/// grow the queue either.
///
/// Frames are masked here, under the lock, in the order they are queued; data is compressed
/// before it comes (by the one sender at a time), so its order on the wire is the order of the
/// compression context.
final class WebSocketOutbox: @unchecked Sendable {
  private let lock = Lock()
  private let limit: Int
  private let channel: any WebSocketChannel
  // Guarded by `lock`.
  private var encoder = WebSocketFrameEncoder()
  private var frames: [Data] = []
  private var firstFrame = 0
  private var queuedBytes = 0
  private var pong: Data?
  private var isCloseQueued = false
  private var closeCode: WebSocketCloseCode?
  /// Set once nothing more may be queued: what `send` throws from then on.
  private var refusal: WebSocketError?
  /// Set once the loop must stop: after draining (`true`) or at once (`false`).
  private var stopAfterDraining: Bool?
  private var roomWaiters: [CheckedContinuation<Void, Never>] = []
  /// The rest of bytes the socket took only part of; written before anything else.
  private var unsent: Data?
  /// Whether a thread is writing, or the rest waits for the socket to take more.
  private var isWriting = false
  /// Whether the rest waits for the channel's ``WebSocketChannelEvent/writable``: the writer
  /// that found the socket full noted it and left.
  private var isWaitingForRoom = false
  /// Whether the channel said ``WebSocketChannelEvent/writable`` after a short write but before
  /// its writer noted it (the channel's thread may be quicker): that writer goes on instead of
  /// waiting for a signal that already came.
  private var roomCameEarly = false
  /// Whether the connection is closed: nothing more is written.
  private var isDone = false
  /// Bytes written to the connection so far.
  private var written = 0
  /// Told once when writing is over: `nil` once stopped and drained, or the failure of the
  /// write that failed (the connection is closed then).
  private let onClose: @Sendable (TransportFailure?) -> Void

  /// Largest run of small frames joined into one write: fewer system calls for chatty sockets,
  /// while a large frame goes out as it is, without a copy.
  private static let joinedWriteSize = 64 << 10

  init(
    channel: any WebSocketChannel, limit: Int,
    onClose: @escaping @Sendable (TransportFailure?) -> Void
  ) {
    self.channel = channel
    self.limit = limit
    self.onClose = onClose
  }

  /// Returns once the queue holds fewer than `limit` bytes, or nothing more can be queued.
  func waitForRoom() async {
    await withCheckedContinuation { continuation in
      let hasRoom = lock.withLock {
        guard queuedBytes >= limit, refusal == nil else { return true }
        roomWaiters.append(continuation)
        return false
      }
      if hasRoom { continuation.resume() }
    }
  }

  /// Queues a data frame (already compressed, if it is to be).
  ///
  /// - Throws: ``WebSocketError`` once a close is queued or the WebSocket ended.
  func enqueue(_ frame: WebSocketFrame) throws(WebSocketError) {
    let outcome = lock.withLock { () -> Result<Void, WebSocketError> in
      if let refusal { return .failure(refusal) }
      append(encoder.encode(frame))
      return .success(())
    }
    try outcome.get()
    write()
  }

  /// Bytes written to the connection so far.
  var bytesWritten: Int { lock.withLock { written } }

  /// Queues a ping; dropped once a close is queued.
  func enqueuePing(_ payload: Data) {
    let queued = lock.withLock {
      guard refusal == nil else { return false }
      append(encoder.encode(WebSocketFrame(opcode: .ping, payload: payload)))
      return true
    }
    if queued { write() }
  }

  /// Answers a ping, replacing an answer not yet written; dropped once a close is queued.
  func enqueuePong(_ payload: Data) {
    let queued = lock.withLock {
      guard refusal == nil else { return false }
      pong = payload
      return true
    }
    if queued { write() }
  }

  /// Queues the close frame, unless one is queued already, and refuses every later frame with
  /// `refusal`.
  ///
  /// - Parameter droppingData: whether data frames not yet written are dropped first: the
  ///   WebSocket is failing, and the close code matters more than data the server will discard.
  /// - Returns: Whether this close was queued.
  @discardableResult
  func enqueueClose(_ frame: WebSocketFrame, droppingData: Bool, refusal: WebSocketError) -> Bool {
    let (queued, waiters) = lock.withLock {
      () -> (Bool, [CheckedContinuation<Void, Never>]) in
      guard !isCloseQueued, self.refusal == nil else { return (false, []) }
      isCloseQueued = true
      let payload = frame.payload
      closeCode =
        payload.count >= 2
        ? WebSocketCloseCode(
          rawValue: UInt16(payload[payload.startIndex]) << 8
            | UInt16(payload[payload.startIndex + 1])) : .noStatusReceived
      self.refusal = refusal
      if droppingData { dropQueued() }
      append(encoder.encode(frame))
      defer { roomWaiters = [] }
      return (true, roomWaiters)
    }
    for waiter in waiters { waiter.resume() }
    if queued { write() }
    return queued
  }

  /// The payload of the pong waiting to be written, if any.
  var queuedPong: Data? { lock.withLock { pong } }

  /// How many senders wait in ``waitForRoom()``.
  var waitingSenderCount: Int { lock.withLock { roomWaiters.count } }

  /// Whether a close frame is queued (or written): no data may follow it.
  var closeIsQueued: Bool { lock.withLock { isCloseQueued } }

  /// The code of the close frame queued, once one is (1005 for one without a code).
  var queuedCloseCode: WebSocketCloseCode? { lock.withLock { closeCode } }

  /// Throws what ``enqueue(_:)`` would throw now, before a sender spends time compressing.
  func checkOpen() throws(WebSocketError) {
    if let refusal = lock.withLock({ refusal }) { throw refusal }
  }

  /// Stops writing: after writing what is queued (a close answered, say), or at once. The
  /// connection stays open: RFC 6455 §7.1.1 has the server close TCP first. Later sends throw
  /// `refusal` (unless a close already set theirs).
  func stop(afterDraining: Bool, refusal: WebSocketError) {
    let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      if self.refusal == nil { self.refusal = refusal }
      if !afterDraining { dropQueued() }
      if stopAfterDraining != false { stopAfterDraining = afterDraining }
      defer { roomWaiters = [] }
      return roomWaiters
    }
    for waiter in waiters { waiter.resume() }
    write()
  }

  /// The socket takes writes again: the rest goes on.
  func socketIsWritable() {
    let resumes = lock.withLock { () -> Bool in
      guard isWaitingForRoom else {
        if isWriting { roomCameEarly = true }
        return false
      }
      isWaitingForRoom = false
      isWriting = false
      return true
    }
    if resumes { write() }
  }

  /// Writes what is queued, on this thread, unless another is writing; stops where the socket
  /// is full (the channel then reports it writable), and for good once stopped and drained.
  private func write() {
    guard
      lock.withLock({ () -> Bool in
        guard !isWriting, !isDone else { return false }
        isWriting = true
        return true
      })
    else { return }
    while true {
      let next = lock.withLock { () -> Data? in
        if let rest = unsent { return rest }
        if let payload = pong {
          pong = nil
          let bytes = encoder.encode(WebSocketFrame(opcode: .pong, payload: payload))
          queuedBytes += bytes.count
          return bytes
        }
        if firstFrame < frames.count { return takeFrames() }
        isWriting = false
        if stopAfterDraining != nil { isDone = true }
        return nil
      }
      guard let bytes = next else {
        if lock.withLock({ isDone }) { end(nil) }
        return
      }
      let written: Int
      do {
        written = try channel.send(bytes)
      } catch {
        lock.withLock {
          isDone = true
          dropQueued()
        }
        return end(error)
      }
      let (waiters, full) = lock.withLock {
        () -> ([CheckedContinuation<Void, Never>], Bool) in
        self.written += written
        queuedBytes -= written
        var full = written < bytes.count
        unsent = full ? bytes.subdata(in: (bytes.startIndex + written)..<bytes.endIndex) : nil
        if full, roomCameEarly {
          full = false
        } else if full {
          isWaitingForRoom = true
        }
        roomCameEarly = false
        guard queuedBytes < limit else { return ([], full) }
        defer { roomWaiters = [] }
        return (roomWaiters, full)
      }
      for waiter in waiters { waiter.resume() }
      // The socket is full: `isWriting` stays set until the channel says it takes more.
      if full { return }
    }
  }

  /// Ends writing once, releasing every sender that waits; a failed write closes the
  /// connection.
  private func end(_ failure: TransportFailure?) {
    let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
      if refusal == nil {
        refusal = WebSocketError(kind: .closed, detail: "the WebSocket is closed")
      }
      defer { roomWaiters = [] }
      return roomWaiters
    }
    for waiter in waiters { waiter.resume() }
    if failure != nil { channel.close() }
    onClose(failure)
  }

  /// Guarded by `lock`.
  private func dropQueued() {
    frames.removeAll()
    firstFrame = 0
    queuedBytes = 0
    pong = nil
    unsent = nil
  }

  /// The first queued frame, joined with the small ones after it. Guarded by `lock`.
  private func takeFrames() -> Data {
    var bytes = frames[firstFrame]
    frames[firstFrame] = Data()
    firstFrame += 1
    while firstFrame < frames.count,
      bytes.count + frames[firstFrame].count <= Self.joinedWriteSize
    {
      bytes.append(frames[firstFrame])
      frames[firstFrame] = Data()
      firstFrame += 1
    }
    if firstFrame == frames.count {
      frames.removeAll(keepingCapacity: true)
      firstFrame = 0
    } else if firstFrame >= 256, firstFrame * 2 >= frames.count {
      // A queue that never empties must not keep the taken slots forever.
      frames.removeFirst(firstFrame)
      firstFrame = 0
    }
    return bytes
  }

  /// Guarded by `lock`.
  private func append(_ bytes: Data) {
    frames.append(bytes)
    queuedBytes += bytes.count
  }
}
