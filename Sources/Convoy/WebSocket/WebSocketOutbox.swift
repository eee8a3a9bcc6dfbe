import Foundation

/// The frames waiting to go out on a WebSocket, and the loop that writes them.
///
/// A message's `send` returns once its frame is queued here, so a sender waits for the network
/// only when the queue already holds `limit` bytes: then ``waitForRoom()`` holds it back
/// (back-pressure instead of memory growing). Control frames never wait: a pong or a close must
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
  /// Set once nothing more may be queued: what `send` throws from then on.
  private var refusal: WebSocketError?
  /// Set once the loop must stop: after draining (`true`) or at once (`false`).
  private var stopAfterDraining: Bool?
  private var roomWaiters: [CheckedContinuation<Void, Never>] = []
  private var idleWriter: CheckedContinuation<Void, Never>?

  /// Largest run of small frames joined into one write: fewer system calls for chatty sockets,
  /// while a large frame goes out as it is, without a copy.
  private static let joinedWriteSize = 64 << 10

  init(channel: any WebSocketChannel, limit: Int) {
    self.channel = channel
    self.limit = limit
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
    let outcome = lock.withLock {
      () -> Result<CheckedContinuation<Void, Never>?, WebSocketError> in
      if let refusal { return .failure(refusal) }
      append(encoder.encode(frame))
      return .success(takeIdleWriter())
    }
    try outcome.get()?.resume()
  }

  /// Queues a ping; dropped once a close is queued.
  func enqueuePing(_ payload: Data) {
    let writer = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      guard refusal == nil else { return nil }
      append(encoder.encode(WebSocketFrame(opcode: .ping, payload: payload)))
      return takeIdleWriter()
    }
    writer?.resume()
  }

  /// Answers a ping, replacing an answer not yet written; dropped once a close is queued.
  func enqueuePong(_ payload: Data) {
    let writer = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      guard refusal == nil else { return nil }
      pong = payload
      return takeIdleWriter()
    }
    writer?.resume()
  }

  /// Queues the close frame, unless one is queued already, and refuses every later frame with
  /// `refusal`.
  ///
  /// - Parameter droppingData: whether data frames not yet written are dropped first: the
  ///   WebSocket is failing, and the close code matters more than data the server will discard.
  /// - Returns: Whether this close was queued.
  @discardableResult
  func enqueueClose(_ frame: WebSocketFrame, droppingData: Bool, refusal: WebSocketError) -> Bool {
    let (queued, writer, waiters) = lock.withLock {
      () -> (Bool, CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) in
      guard !isCloseQueued, self.refusal == nil else { return (false, nil, []) }
      isCloseQueued = true
      self.refusal = refusal
      if droppingData {
        frames.removeAll()
        firstFrame = 0
        queuedBytes = 0
        pong = nil
      }
      append(encoder.encode(frame))
      defer { roomWaiters = [] }
      return (true, takeIdleWriter(), roomWaiters)
    }
    writer?.resume()
    for waiter in waiters { waiter.resume() }
    return queued
  }

  /// The payload of the pong waiting to be written, if any.
  var queuedPong: Data? { lock.withLock { pong } }

  /// How many senders wait in ``waitForRoom()``.
  var waitingSenderCount: Int { lock.withLock { roomWaiters.count } }

  /// Whether a close frame is queued (or written): no data may follow it.
  var closeIsQueued: Bool { lock.withLock { isCloseQueued } }

  /// Throws what ``enqueue(_:)`` would throw now, before a sender spends time compressing.
  func checkOpen() throws(WebSocketError) {
    if let refusal = lock.withLock({ refusal }) { throw refusal }
  }

  /// Stops the loop: after writing what is queued (a close answered, say), or at once. Later
  /// sends throw `refusal` (unless a close already set theirs).
  func stop(afterDraining: Bool, refusal: WebSocketError) {
    let (writer, waiters) = lock.withLock {
      () -> (CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) in
      if self.refusal == nil { self.refusal = refusal }
      if !afterDraining {
        frames.removeAll()
        firstFrame = 0
        queuedBytes = 0
        pong = nil
      }
      if stopAfterDraining != false { stopAfterDraining = afterDraining }
      defer { roomWaiters = [] }
      return (takeIdleWriter(), roomWaiters)
    }
    writer?.resume()
    for waiter in waiters { waiter.resume() }
  }

  /// Writes queued frames until ``stop(afterDraining:refusal:)`` or a write fails, then closes
  /// the connection.
  ///
  /// - Returns: The failure of the write that failed, `nil` when the loop was stopped.
  func run() async -> TransportFailure? {
    var failure: TransportFailure?
    while true {
      guard let bytes = await nextWrite() else { break }
      do {
        try await channel.write(bytes)
      } catch {
        failure = error
        break
      }
      let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
        queuedBytes -= bytes.count
        guard queuedBytes < limit else { return [] }
        defer { roomWaiters = [] }
        return roomWaiters
      }
      for waiter in waiters { waiter.resume() }
    }
    channel.close()
    return failure
  }

  /// The next bytes to write, waiting while there are none; `nil` once the loop must stop.
  private func nextWrite() async -> Data? {
    while true {
      let next = lock.withLock { () -> Data?? in
        if let payload = pong {
          pong = nil
          let bytes = encoder.encode(WebSocketFrame(opcode: .pong, payload: payload))
          queuedBytes += bytes.count
          return bytes
        }
        if firstFrame < frames.count { return takeFrames() }
        if stopAfterDraining != nil { return .some(nil) }
        return nil
      }
      if let next { return next }
      await withCheckedContinuation { continuation in
        let hasWork = lock.withLock {
          guard pong == nil, firstFrame == frames.count, stopAfterDraining == nil else {
            return true
          }
          idleWriter = continuation
          return false
        }
        if hasWork { continuation.resume() }
      }
    }
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

  /// Guarded by `lock`.
  private func takeIdleWriter() -> CheckedContinuation<Void, Never>? {
    defer { idleWriter = nil }
    return idleWriter
  }
}
