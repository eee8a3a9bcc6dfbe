import Foundation

/// A WebSocket's running state once the handshake is done: frames in (as the channel hands
/// them over, pings answered, the close handshake), messages out (queued, masked, compressed
/// when agreed), keep-alive and the close.
///
/// Bytes are decoded on the thread that brings them (the channel's, or a reader's that made room
/// in a full inbox), one at a time under `receiveLock`; decoding stops while the inbox is full
/// and the channel stops reading, so the unread bytes wait in the kernel.
final class WebSocketSession: @unchecked Sendable {
  private(set) var inbox: WebSocketInbox!
  let channel: any WebSocketChannel
  private let options: WebSocketOptions
  private let clock: any ConvoyClock
  private(set) var outbox: WebSocketOutbox!
  /// One sender at a time: messages are compressed in the order they are queued.
  private let senders = WebSocketWriteGate()
  /// What compression was agreed, and the compressor, started with the first message worth
  /// compressing (an idle socket holds no zlib window). Guarded by `senders`.
  private let deflate: (zlib: ZlibLibrary, parameters: PerMessageDeflateParameters)?
  private var deflater: MessageDeflater?
  private let lock = Lock()
  /// Reports the WebSocket's events, as a call's.
  private let emitter: EventEmitter
  /// The span of the WebSocket, when the connection traces calls: ended with it.
  private let span: (any CallSpan)?
  private let url: URL
  private let startedAt: Date
  // Guarded by `lock`.
  private var serverClose: (code: WebSocketCloseCode, reason: String)?
  private var counts = WebSocketMetrics()
  private var isOver = false
  private var overWaiters: [CheckedContinuation<Void, Never>] = []
  /// The next keep-alive ping, or the deadline of the pong the last one waits for.
  private var keepAliveTimer: ClockTimer?
  private var pingsSent: UInt32 = 0
  /// When the idle timeout is next checked, and when bytes last arrived.
  private var idleTimer: ClockTimer?
  private var lastReceived: Date
  /// Ends the connection if the close, or what was queued before it, is still not written
  /// when it is due.
  private var closeBackstop: ClockTimer?
  /// Guards what decoding uses. Recursive: decoding may end the WebSocket, and the end takes
  /// it again to read on to the server's end of TCP.
  private let receiveLock = NSRecursiveLock()
  // Guarded by `receiveLock`.
  private var decoder: WebSocketFrameDecoder
  private var assembler: WebSocketMessageAssembler
  private var isReceivingPaused = false
  /// How the connection ended, once the channel said so; acted on after the frames before it.
  private var channelEnd: WebSocketError?

  init(
    channel: any WebSocketChannel, leftover: Data, options: WebSocketOptions,
    deflate: PerMessageDeflateParameters?, zlib: ZlibLibrary?, clock: any ConvoyClock,
    observation: WebSocketObservation
  ) {
    emitter = observation.emitter
    span = observation.span
    url = observation.url
    startedAt = observation.startedAt
    self.channel = channel
    self.options = options
    self.clock = clock
    lastReceived = clock.now
    var inflater: SingleReaderInflater?
    if let deflate, let zlib {
      self.deflate = (zlib, deflate)
      inflater = SingleReaderInflater(zlib: zlib, parameters: deflate)
    } else {
      self.deflate = nil
    }
    decoder = WebSocketFrameDecoder(
      maximumFrameSize: options.maximumMessageSize, allowsRSV1: deflate != nil)
    assembler = WebSocketMessageAssembler(
      maximumMessageSize: options.maximumMessageSize, inflater: inflater)
    // The inbox and the outbox call back into the session, which owns them: weakly.
    inbox = WebSocketInbox(capacity: options.bufferedMessages) { [weak self] in
      self?.decodeReceived()
    }
    outbox = WebSocketOutbox(channel: channel, limit: options.maximumQueuedBytes) {
      [weak self] failure in self?.connectionClosed(failure)
    }
    if !leftover.isEmpty { decoder.append(leftover) }
    // The channel keeps the session until it is closed: a WebSocket let go still writes its
    // close.
    channel.startReceiving { event in self.handle(event) }
    decodeReceived()
    scheduleNextPing()
    scheduleIdleCheck(after: options.idleTimeout)
  }

  private func handle(_ event: WebSocketChannelEvent) {
    // Once over, what still comes is read and dropped until the server closes TCP (RFC 6455
    // §7.1.1): closing first with bytes unread would reset the connection, and a reset can
    // destroy the close frame before the server reads it.
    let isOver = lock.withLock { self.isOver }
    switch event {
    case .received(let bytes):
      if isOver { return }
      lock.withLock {
        counts.wireBytesReceived += bytes.count
        if options.idleTimeout != nil { lastReceived = clock.now }
      }
      receiveLock.withLock { decoder.append(bytes) }
      decodeReceived()
    case .ended, .failed:
      if isOver { return closeConnection() }
      receiveLock.withLock {
        if case .failed(let failure) = event {
          channelEnd = WebSocketError(
            kind: .closedAbnormally, closeCode: .abnormalClosure, detail: "\(failure)")
        } else {
          channelEnd = WebSocketError(
            kind: .closedAbnormally, closeCode: .abnormalClosure,
            detail: "the server ended the connection without a close frame")
        }
      }
      decodeReceived()
    case .writable:
      outbox.socketIsWritable()
    }
  }

  /// Writing is over: a write failed (the connection broke), or what the end queued is written.
  private func connectionClosed(_ failure: TransportFailure?) {
    if let failure {
      finish(
        .failure(
          WebSocketError(
            kind: .closedAbnormally, closeCode: .abnormalClosure, detail: "\(failure)")))
      closeConnection()
    }
  }

  /// Closes the connection, the close handshake done or given up.
  private func closeConnection() {
    lock.withLock { closeBackstop }?.cancel()
    channel.close()
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
    emitter.emit(
      .webSocketMessage(.init(call: emitter.call, direction: .sent, kind: .ping, size: 4)))
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
    let size = frame.payload.count
    try outbox.checkOpen()
    if let deflate, frame.payload.count >= MessageDeflater.defaultMinimumMessageSize {
      let deflater =
        try deflater ?? MessageDeflater(zlib: deflate.zlib, parameters: deflate.parameters)
      self.deflater = deflater
      if deflater.shouldCompress(byteCount: frame.payload.count) {
        frame.payload = try deflater.deflate(frame.payload)
        frame.rsv1 = true
      }
    }
    try outbox.enqueue(frame)
    lock.withLock {
      counts.messagesSent += 1
      counts.bytesSent += size
    }
    emitter.emit(
      .webSocketMessage(
        .init(call: emitter.call, direction: .sent, kind: message.eventKind, size: size)))
  }

  /// What went through the WebSocket so far.
  var metrics: WebSocketMetrics {
    var metrics = lock.withLock { counts }
    metrics.wireBytesSent = outbox.bytesWritten
    return metrics
  }

  /// Queues a close frame unless one went already, waits for the server's (or `closeTimeout`),
  /// then ends the connection. Messages queued before it go first.
  func close(code: WebSocketCloseCode, reason: String) async {
    queueClose(code, reason: reason, droppingData: false, refusal: Self.closedHere)
    let timer = clock.schedule(after: options.closeTimeout) { [weak self] in
      self?.finish(.success(()))
      self?.closeConnection()
    }
    await waitUntilOver()
    timer.cancel()
  }

  private static let closedHere = WebSocketError(kind: .closed, detail: "the WebSocket is closed")

  /// Closes with 1001 without waiting for the server's answer: the WebSocket was let go.
  /// Messages queued before go first, within `closeTimeout`.
  func abandon() {
    guard queueClose(.goingAway, droppingData: false, refusal: Self.closedHere) else { return }
    finish(.success(()))
  }

  /// Fails the WebSocket from this side: a close with `error`'s code, queued before any data,
  /// then the connection ends.
  private func fail(_ error: WebSocketError) {
    queueClose(error.closeCode ?? .goingAway, droppingData: true, refusal: error)
    finish(.failure(error))
  }

  /// Queues a close frame with `code` (none when `nil`), unless one went already.
  @discardableResult
  private func queueClose(
    _ code: WebSocketCloseCode?, reason: String = "", droppingData: Bool,
    refusal: WebSocketError
  ) -> Bool {
    outbox.enqueueClose(
      WebSocketFrame.close(code: code, reason: reason), droppingData: droppingData,
      refusal: refusal)
  }

  /// Decodes the bytes received so far into messages for the inbox, until it is full (then
  /// the channel stops reading until the reader makes room) or no whole frame is left.
  private func decodeReceived() {
    receiveLock.withLock {
      while !lock.withLock({ isOver }) {
        if inbox.isFull {
          if !isReceivingPaused {
            isReceivingPaused = true
            channel.setReceivingPaused(true)
          }
          return
        }
        let output: WebSocketMessageAssembler.Output
        do throws(WebSocketProtocolError) {
          guard let frame = try decoder.nextFrame() else { break }
          guard let assembled = try assembler.receive(frame) else { continue }
          output = assembled
        } catch {
          return fail(
            WebSocketError(
              kind: .protocolViolation, closeCode: error.closeCode, detail: error.description))
        }
        switch output {
        case .text(let text):
          received(.text, size: text.utf8.count)
          inbox.put(.text(text))
        case .binary(let data):
          received(.binary, size: data.count)
          inbox.put(.binary(data))
        case .ping(let payload):
          outbox.enqueuePong(payload)
          received(.ping, size: payload.count)
        case .pong(let payload):
          scheduleNextPing()
          received(.pong, size: payload.count)
        case .close(let code, let reason):
          let received = code ?? .noStatusReceived
          lock.withLock { serverClose = (received, reason) }
          // §5.5.1: answer with the code received.
          queueClose(code, droppingData: false, refusal: Self.closedHere)
          return finish(Self.ending(closedWith: received, reason: reason))
        }
      }
      if let channelEnd {
        // The connection broke, or was closed by `close`'s timer or `abandon`.
        return finish(outbox.closeIsQueued ? .success(()) : .failure(channelEnd))
      }
      if isReceivingPaused {
        isReceivingPaused = false
        channel.setReceivingPaused(false)
      }
    }
  }

  /// Counts and reports what came in.
  private func received(_ kind: ConvoyEvent.WebSocketMessageMoved.Kind, size: Int) {
    if kind == .text || kind == .binary {
      lock.withLock {
        counts.messagesReceived += 1
        counts.bytesReceived += size
      }
    }
    emitter.emit(
      .webSocketMessage(.init(call: emitter.call, direction: .received, kind: kind, size: size)))
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
    reportEnd(result)
    let hasEnded = receiveLock.withLock {
      // Read on to the server's end of TCP, whatever the inbox holds.
      if isReceivingPaused {
        isReceivingPaused = false
        channel.setReceivingPaused(false)
      }
      return channelEnd != nil
    }
    if hasEnded { closeConnection() }
  }

  /// Sends `websocket.closed` and ends the span.
  private func reportEnd(_ result: Result<Void, any Error>) {
    let server = lock.withLock { serverClose }
    let client = outbox.queuedCloseCode
    let metrics = self.metrics
    switch result {
    case .success: span?.finished(status: 101, metrics: CallMetricsRecorder().snapshot())
    case .failure(let error): span?.failed(error, metrics: CallMetricsRecorder().snapshot())
    }
    emitter.emit(
      .webSocketClosed(
        .init(
          call: emitter.call, url: url, clientCode: client?.rawValue,
          serverCode: server?.code.rawValue,
          reason: server?.reason ?? "",
          errorCategory: result.failure.map(ErrorMessageProvider.category(of:)),
          duration: Date().timeIntervalSince(startedAt), metrics: metrics)))
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

/// How a WebSocket reports itself: its events, span, URL and start.
struct WebSocketObservation: Sendable {
  let emitter: EventEmitter
  let span: (any CallSpan)?
  let url: URL
  let startedAt: Date
}

extension WebSocketMessage {
  /// The kind its events name.
  fileprivate var eventKind: ConvoyEvent.WebSocketMessageMoved.Kind {
    switch self {
    case .text: .text
    case .binary: .binary
    }
  }
}

extension Result {
  /// The error of a failure.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
