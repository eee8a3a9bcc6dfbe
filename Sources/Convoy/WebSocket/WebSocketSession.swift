import Foundation

/// A WebSocket's running state once the handshake is done: the read loop (frames in, pings
/// answered, the close handshake), the writes (one at a time, masked, compressed when agreed)
/// and the close.
final class WebSocketSession: @unchecked Sendable {
  let inbox: WebSocketInbox
  private let channel: any WebSocketChannel
  private let options: WebSocketOptions
  private let clock: any ConvoyClock
  private let gate = WebSocketWriteGate()
  private let lock = Lock()
  // Guarded by `gate` (one writer at a time).
  private var encoder = WebSocketFrameEncoder()
  private let deflater: MessageDeflater?
  // Guarded by `lock`.
  private var closeSent = false
  private var serverClose: (code: WebSocketCloseCode, reason: String)?
  private var isOver = false
  private var overWaiters: [CheckedContinuation<Void, Never>] = []
  /// The next keep-alive ping, or the deadline of the pong the last one waits for.
  private var keepAliveTimer: ClockTimer?
  private var pingsSent: UInt32 = 0

  init(
    channel: any WebSocketChannel, leftover: Data, options: WebSocketOptions,
    deflate: PerMessageDeflateParameters?, zlib: ZlibLibrary?, clock: any ConvoyClock
  ) throws(PerMessageDeflateError) {
    self.channel = channel
    self.options = options
    self.clock = clock
    inbox = WebSocketInbox(capacity: options.bufferedMessages)
    var inflater: SingleReaderInflater?
    if let deflate, let zlib {
      deflater = try MessageDeflater(zlib: zlib, parameters: deflate)
      inflater = SingleReaderInflater(try MessageInflater(zlib: zlib, parameters: deflate))
    } else {
      deflater = nil
    }
    let decoder = WebSocketFrameDecoder(
      maximumFrameSize: options.maximumMessageSize, allowsRSV1: deflate != nil)
    let assembler = WebSocketMessageAssembler(
      maximumMessageSize: options.maximumMessageSize, inflater: inflater)
    Task { await self.read(decoder: decoder, assembler: assembler, leftover: leftover) }
    scheduleNextPing()
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
      guard !isOver, !closeSent else { return nil }
      pingsSent &+= 1
      keepAliveTimer = clock.schedule(after: options.pongTimeout) { [weak self] in
        self?.pongMissed()
      }
      return withUnsafeBytes(of: pingsSent.bigEndian) { Data($0) }
    }
    guard let payload else { return }
    Task {
      try? await self.write(WebSocketFrame(opcode: .ping, payload: payload), compressing: false)
    }
  }

  /// The server let a ping go unanswered: the connection is taken for dead.
  private func pongMissed() {
    finish(
      .failure(
        WebSocketError(
          kind: .closedAbnormally, closeCode: .abnormalClosure,
          detail: "the server did not answer a ping within \(options.pongTimeout) s")))
  }

  /// The code and reason of the server's close frame, once it came.
  var closeFromServer: (code: WebSocketCloseCode, reason: String)? { lock.withLock { serverClose } }

  func send(_ message: WebSocketMessage) async throws {
    guard !lock.withLock({ closeSent }) else {
      throw WebSocketError(kind: .closed, detail: "the WebSocket is closed")
    }
    var frame: WebSocketFrame
    switch message {
    case .text(let text): frame = WebSocketFrame(opcode: .text, payload: Data(text.utf8))
    case .binary(let data): frame = WebSocketFrame(opcode: .binary, payload: data)
    }
    try await write(frame, compressing: true)
  }

  /// Sends a close frame unless one went already, waits for the server's (or `closeTimeout`),
  /// then ends the connection.
  func close(code: WebSocketCloseCode, reason: String) async {
    if claimCloseSent() {
      try? await write(WebSocketFrame.close(code: code, reason: reason), compressing: false)
    }
    let timer = clock.schedule(after: options.closeTimeout) { [channel] in channel.close() }
    await waitUntilOver()
    timer.cancel()
  }

  /// Ends the connection at once, without a close handshake: the WebSocket was let go.
  func abandon() {
    guard claimCloseSent() else { return }
    let frame = WebSocketFrame.close(code: .goingAway, reason: "")
    Task {
      try? await self.write(frame, compressing: false)
      self.channel.close()
    }
  }

  private func claimCloseSent() -> Bool {
    lock.withLock {
      defer { closeSent = true }
      return !closeSent
    }
  }

  private func write(_ frame: WebSocketFrame, compressing: Bool) async throws {
    await gate.enter()
    defer { gate.leave() }
    var frame = frame
    if compressing, let deflater, deflater.shouldCompress(byteCount: frame.payload.count) {
      frame.payload = try deflater.deflate(frame.payload)
      frame.rsv1 = true
    }
    let bytes = encoder.encode(frame)
    do {
      try await channel.write(bytes)
    } catch {
      throw WebSocketError(kind: .closedAbnormally, closeCode: .abnormalClosure, detail: "\(error)")
    }
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
          case .ping(let payload):
            try? await write(WebSocketFrame(opcode: .pong, payload: payload), compressing: false)
          case .pong: scheduleNextPing()
          case .close(let code, let reason):
            lock.withLock { serverClose = (code ?? .noStatusReceived, reason) }
            if claimCloseSent() {
              // §5.5.1: answer with the code received.
              try? await write(WebSocketFrame.close(code: code, reason: ""), compressing: false)
            }
            return finish(.success(()))
          }
        }
        guard let bytes = try await channel.read() else {
          throw WebSocketError(
            kind: .closedAbnormally, closeCode: .abnormalClosure,
            detail: "the server ended the connection without a close frame")
        }
        pending = bytes
      }
    } catch let violation as WebSocketProtocolError {
      if claimCloseSent() {
        try? await write(
          WebSocketFrame.close(code: violation.closeCode, reason: ""), compressing: false)
      }
      finish(
        .failure(
          WebSocketError(
            kind: .protocolViolation, closeCode: violation.closeCode,
            detail: violation.description)))
    } catch let error as WebSocketError {
      finish(.failure(error))
    } catch {
      // The connection broke, or was closed by `close`'s timer or `abandon`.
      let closedHere = lock.withLock { closeSent }
      finish(
        closedHere
          ? .success(())
          : .failure(
            WebSocketError(
              kind: .closedAbnormally, closeCode: .abnormalClosure, detail: "\(error)")))
    }
  }

  private func finish(_ result: Result<Void, any Error>) {
    let (waiters, timer) = lock.withLock {
      () -> ([CheckedContinuation<Void, Never>], ClockTimer?) in
      isOver = true
      defer { (overWaiters, keepAliveTimer) = ([], nil) }
      return (overWaiters, keepAliveTimer)
    }
    timer?.cancel()
    inbox.finish(result)
    channel.close()
    for waiter in waiters { waiter.resume() }
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

/// One write at a time: frames must not interleave on the wire.
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
