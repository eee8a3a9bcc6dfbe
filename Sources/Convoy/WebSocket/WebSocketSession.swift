import Foundation

/// A WebSocket's running state once the handshake is done: the read loop (frames in, pings
/// answered, the close handshake), the writes (one at a time, masked, compressed when agreed)
/// and the close.
final class WebSocketSession: @unchecked Sendable {
  let inbox: WebSocketInbox
  private let channel: any WebSocketChannel
  private let options: WebSocketOptions
  private let clock: any ConvoyClock
  let outbox: WebSocketOutbox
  /// One sender at a time: messages are compressed in the order they are queued.
  private let senders = WebSocketWriteGate()
  private let deflater: MessageDeflater?
  private let lock = Lock()
  // Guarded by `lock`.
  private var serverClose: (code: WebSocketCloseCode, reason: String)?
  private var isOver = false
  private var overWaiters: [CheckedContinuation<Void, Never>] = []
  /// The next keep-alive ping, or the deadline of the pong the last one waits for.
  private var keepAliveTimer: ClockTimer?
  private var pingsSent: UInt32 = 0
  /// When the idle timeout is next checked, and when bytes last arrived.
  private var idleTimer: ClockTimer?
  private var lastReceived: Date
  /// Ends the connection if the loop draining a close is still writing when it is due.
  private var closeBackstop: ClockTimer?

  init(
    channel: any WebSocketChannel, leftover: Data, options: WebSocketOptions,
    deflate: PerMessageDeflateParameters?, zlib: ZlibLibrary?, clock: any ConvoyClock
  ) throws(PerMessageDeflateError) {
    self.channel = channel
    self.options = options
    self.clock = clock
    lastReceived = clock.now
    inbox = WebSocketInbox(capacity: options.bufferedMessages)
    var inflater: SingleReaderInflater?
    if let deflate, let zlib {
      deflater = try MessageDeflater(zlib: zlib, parameters: deflate)
      inflater = SingleReaderInflater(try MessageInflater(zlib: zlib, parameters: deflate))
    } else {
      deflater = nil
    }
    outbox = WebSocketOutbox(channel: channel, limit: options.maximumQueuedBytes)
    let decoder = WebSocketFrameDecoder(
      maximumFrameSize: options.maximumMessageSize, allowsRSV1: deflate != nil)
    let assembler = WebSocketMessageAssembler(
      maximumMessageSize: options.maximumMessageSize, inflater: inflater)
    let outbox = outbox
    Task { [weak self] in
      let failure = await outbox.run()
      // A write failed, or the loop drained a close and closed the connection.
      self?.writingEnded(failure)
    }
    Task { await self.read(decoder: decoder, assembler: assembler, leftover: leftover) }
    scheduleNextPing()
    scheduleIdleCheck(after: options.idleTimeout)
  }

  /// The outbox's loop ended: a write failed (the connection broke), or what was queued after
  /// the end went out and the connection is closed.
  private func writingEnded(_ failure: TransportFailure?) {
    if let failure {
      finish(
        .failure(
          WebSocketError(
            kind: .closedAbnormally, closeCode: .abnormalClosure, detail: "\(failure)")))
    }
    lock.withLock { closeBackstop }?.cancel()
  }

  /// Arms the next keep-alive ping, unless pings are off or the WebSocket is over.
  private func scheduleNextPing() {
    guard let interval = options.pingInterval else { return }
    lock.withLock {
      guard !isOver else { return }
      keepAliveTimer?.cancel()
      keepAliveTimer = clock.schedule(after: interval) { [weak self] in self?.ping() }
    }
  }

  /// Sends a keep-alive ping and arms the deadline of its pong.
  private func ping() {
    let payload = lock.withLock { () -> Data? in
      guard !isOver else { return nil }
      pingsSent &+= 1
      keepAliveTimer = clock.schedule(after: options.pongTimeout) { [weak self] in
        self?.fail(
          WebSocketError(
            kind: .timedOut, closeCode: .goingAway,
            detail: "the server did not answer a ping within \(self?.options.pongTimeout ?? 0) s"))
      }
      return withUnsafeBytes(of: pingsSent.bigEndian) { Data($0) }
    }
    guard let payload else { return }
    outbox.enqueuePing(payload)
  }

  /// Checks the idle timeout `seconds` from now: no bytes for `idleTimeout` fail the WebSocket.
  private func scheduleIdleCheck(after seconds: TimeInterval?) {
    guard let seconds, let timeout = options.idleTimeout else { return }
    lock.withLock {
      guard !isOver else { return }
      idleTimer = clock.schedule(after: seconds) { [weak self] in
        guard let self else { return }
        // Bytes only note the time; the timer is moved here, once per timeout at most.
        let quiet = clock.now.timeIntervalSince(lock.withLock { lastReceived })
        guard quiet >= timeout else { return scheduleIdleCheck(after: timeout - quiet) }
        fail(
          WebSocketError(
            kind: .timedOut, closeCode: .goingAway,
            detail: "nothing arrived from the server for \(timeout) s"))
      }
    }
  }

  /// The code and reason of the server's close frame, once it came.
  var closeFromServer: (code: WebSocketCloseCode, reason: String)? { lock.withLock { serverClose } }

  /// Queues `message`, waiting first while the outbound queue is full.
  func send(_ message: WebSocketMessage) async throws {
    await senders.enter()
    defer { senders.leave() }
    await outbox.waitForRoom()
    var frame: WebSocketFrame
    switch message {
    case .text(let text): frame = WebSocketFrame(opcode: .text, payload: Data(text.utf8))
    case .binary(let data): frame = WebSocketFrame(opcode: .binary, payload: data)
    }
    try outbox.checkOpen()
    if let deflater, deflater.shouldCompress(byteCount: frame.payload.count) {
      frame.payload = try deflater.deflate(frame.payload)
      frame.rsv1 = true
    }
    try outbox.enqueue(frame)
  }

  /// Queues a close frame unless one went already, waits for the server's (or `closeTimeout`),
  /// then ends the connection. Messages queued before it go first.
  func close(code: WebSocketCloseCode, reason: String) async {
    outbox.enqueueClose(
      WebSocketFrame.close(code: code, reason: reason), droppingData: false,
      refusal: Self.closedHere)
    let timer = clock.schedule(after: options.closeTimeout) { [channel] in channel.close() }
    await waitUntilOver()
    timer.cancel()
  }

  private static let closedHere = WebSocketError(kind: .closed, detail: "the WebSocket is closed")

  /// Closes with 1001 without waiting for the server's answer: the WebSocket was let go.
  /// Messages queued before go first, within `closeTimeout`.
  func abandon() {
    let queued = outbox.enqueueClose(
      WebSocketFrame.close(code: .goingAway, reason: ""), droppingData: false,
      refusal: Self.closedHere)
    guard queued else { return }
    finish(.success(()))
  }

  /// Fails the WebSocket from this side: a close with `error`'s code, queued before any data,
  /// then the connection ends.
  private func fail(_ error: WebSocketError) {
    outbox.enqueueClose(
      WebSocketFrame.close(code: error.closeCode ?? .goingAway, reason: ""), droppingData: true,
      refusal: error)
    finish(.failure(error))
  }

  private func read(
    decoder: WebSocketFrameDecoder, assembler: WebSocketMessageAssembler, leftover: Data
  ) async {
    var decoder = decoder
    var assembler = assembler
    var pending = leftover
    do {
      while true {
        if !pending.isEmpty { decoder.append(pending) }
        while let frame = try decoder.nextFrame() {
          guard let output = try assembler.receive(frame) else { continue }
          switch output {
          case .text(let text): await inbox.put(.text(text))
          case .binary(let data): await inbox.put(.binary(data))
          case .ping(let payload): outbox.enqueuePong(payload)
          case .pong: scheduleNextPing()
          case .close(let code, let reason):
            let received = code ?? .noStatusReceived
            lock.withLock { serverClose = (received, reason) }
            // §5.5.1: answer with the code received.
            outbox.enqueueClose(
              WebSocketFrame.close(code: code, reason: ""), droppingData: false,
              refusal: Self.closedHere)
            return finish(Self.ending(closedWith: received, reason: reason))
          }
        }
        guard let bytes = try await channel.read() else {
          throw WebSocketError(
            kind: .closedAbnormally, closeCode: .abnormalClosure,
            detail: "the server ended the connection without a close frame")
        }
        if options.idleTimeout != nil { lock.withLock { lastReceived = clock.now } }
        pending = bytes
      }
    } catch let violation as WebSocketProtocolError {
      fail(
        WebSocketError(
          kind: .protocolViolation, closeCode: violation.closeCode, detail: violation.description))
    } catch let error as WebSocketError {
      finish(.failure(error))
    } catch {
      // The connection broke, or was closed by `close`'s timer or `abandon`.
      let closedHere = outbox.closeIsQueued
      finish(
        closedHere
          ? .success(())
          : .failure(
            WebSocketError(
              kind: .closedAbnormally, closeCode: .abnormalClosure, detail: "\(error)")))
    }
  }

  /// How the messages end once the server closed with `code`: normally for a normal closure, a
  /// server going away, no code and the codes apps and libraries define (3000–4999); with
  /// ``WebSocketError/Kind/closedByServer`` for the codes that report a failure.
  private static func ending(closedWith code: WebSocketCloseCode, reason: String)
    -> Result<Void, any Error>
  {
    switch code.rawValue {
    case 1000, 1001, 1005, 3000...4999: .success(())
    default:
      .failure(
        WebSocketError(
          kind: .closedByServer, closeCode: code,
          detail: "the server closed with \(code.rawValue)\(reason.isEmpty ? "" : ": \(reason)")"))
    }
  }

  /// Ends the WebSocket once: the reader gets what was received, then `result`; what is queued
  /// (a close, at least) is written within `closeTimeout`, then the connection is closed.
  private func finish(_ result: Result<Void, any Error>) {
    let ending = lock.withLock {
      () -> (waiters: [CheckedContinuation<Void, Never>], timers: [ClockTimer?])? in
      guard !isOver else { return nil }
      isOver = true
      defer { (overWaiters, keepAliveTimer, idleTimer) = ([], nil, nil) }
      closeBackstop = clock.schedule(after: options.closeTimeout) { [channel] in channel.close() }
      return (overWaiters, [keepAliveTimer, idleTimer])
    }
    guard let ending else { return }
    for timer in ending.timers { timer?.cancel() }
    inbox.finish(result)
    let refusal: WebSocketError
    switch result {
    case .failure(let error as WebSocketError): refusal = error
    default: refusal = Self.closedHere
    }
    outbox.stop(afterDraining: true, refusal: refusal)
    for waiter in ending.waiters { waiter.resume() }
  }

  private func waitUntilOver() async {
    await withCheckedContinuation { continuation in
      let over = lock.withLock {
        if !isOver { overWaiters.append(continuation) }
        return isOver
      }
      if over { continuation.resume() }
    }
  }
}

/// One at a time, in the order they came: the senders of a WebSocket.
final class WebSocketWriteGate: @unchecked Sendable {
  private let lock = Lock()
  private var isTaken = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func enter() async {
    await withCheckedContinuation { continuation in
      let entered = lock.withLock {
        guard isTaken else {
          isTaken = true
          return true
        }
        waiters.append(continuation)
        return false
      }
      if entered { continuation.resume() }
    }
  }

  func leave() {
    let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      guard !waiters.isEmpty else {
        isTaken = false
        return nil
      }
      return waiters.removeFirst()
    }
    next?.resume()
  }
}
