import Convoy
import Foundation

/// The server's end of one WebSocket on a ``MockServer``, as a script drives it: messages and
/// hand-made frames out, the client's messages and frames in, the close handshake or a hang-up.
///
/// ```swift
/// server.route("/live", answer: .webSocket { socket in
///   try await socket.send(.text("welcome"))
///   while let message = await socket.receive() {
///     try await socket.send(message)
///   }
/// })
/// ```
///
/// ``receive()`` answers the client's pings and its close, as a server does; ``receiveFrame()``
/// hands over every frame as it came, for a script that checks the client's framing itself.
/// Every message ``receive()`` returns is also recorded on the server
/// (``MockServer/webSocketMessages``). When the script returns, the connection closes; a
/// script's step on a connection the client already closed throws
/// ``MockServerError/webSocketClosed``.
public final class MockWebSocket: @unchecked Sendable {
  /// The upgrade request, as recorded.
  public let request: RecordedRequest
  /// Whether permessage-deflate was agreed: ``send(_:)`` compresses and ``receive()`` inflates.
  public let isCompressed: Bool

  private let descriptor: Int32
  private let wake: Int32
  private let thread: MockConnectionThread
  private let record: @Sendable (MockServer.WebSocketRecord) -> Void
  // Used on the connection's thread only.
  private var buffered: [UInt8]
  private var isOpen = true
  private let deflater: MessageDeflater?
  private let inflater: MessageInflater?
  private var clientCloseSeen = false

  init(
    request: RecordedRequest, descriptor: Int32, wake: Int32, leftover: [UInt8],
    thread: MockConnectionThread, compression: PerMessageDeflateParameters?,
    record: @escaping @Sendable (MockServer.WebSocketRecord) -> Void
  ) {
    self.request = request
    self.descriptor = descriptor
    self.wake = wake
    self.thread = thread
    self.record = record
    buffered = leftover
    // The server compresses with the `server_…` half and inflates with the `client_…` half:
    // Convoy's deflater and inflater are written for the client, so the halves are swapped.
    let mirrored = compression.map {
      PerMessageDeflateParameters(
        clientNoContextTakeover: $0.serverNoContextTakeover,
        serverNoContextTakeover: $0.clientNoContextTakeover,
        clientMaxWindowBits: $0.serverMaxWindowBits, serverMaxWindowBits: $0.clientMaxWindowBits)
    }
    let zlib = try? ZlibLibrary.shared.get()
    if let mirrored, let zlib {
      deflater = try? MessageDeflater(zlib: zlib, parameters: mirrored)
      inflater = try? MessageInflater(zlib: zlib, parameters: mirrored)
    } else {
      deflater = nil
      inflater = nil
    }
    isCompressed = deflater != nil && inflater != nil
  }

  // MARK: - Sending

  /// Sends `message` in one frame, compressed when that was agreed (and it is 64 bytes or more).
  public func send(_ message: WebSocketMessage) async throws {
    var frame: MockWebSocketFrame
    switch message {
    case .text(let text): frame = .text(text)
    case .binary(let data): frame = MockWebSocketFrame(opcode: 0x2, payload: data)
    }
    if let deflater, frame.payload.count >= 64,
      let compressed = try? deflater.deflate(frame.payload)
    {
      frame.payload = compressed
      frame.reservedBits = 0b100
    }
    try await send(frame: frame)
  }

  /// Sends `frame` exactly as given, right or wrong.
  public func send(frame: MockWebSocketFrame) async throws {
    try await send(bytes: frame.bytes)
  }

  /// Sends `bytes` as they are: half a frame, say, before a hang-up.
  public func send(bytes: Data) async throws {
    let sent = await thread.run { [self] in isOpen && MockSocket.send(descriptor, bytes) }
    guard sent else { throw MockServerError.webSocketClosed }
  }

  /// Sends `bytes` in pieces of `pieceSize`, pausing `pause` between them: a frame that arrives
  /// a few bytes at a time, as over a slow network.
  public func send(bytes: Data, inPiecesOf pieceSize: Int, pausing pause: Duration) async throws {
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let end = bytes.index(start, offsetBy: max(1, pieceSize), limitedBy: bytes.endIndex)
      try await send(bytes: bytes[start..<(end ?? bytes.endIndex)])
      start = end ?? bytes.endIndex
      if start < bytes.endIndex { await self.pause(for: pause) }
    }
  }

  // MARK: - Receiving

  /// The next frame the client sent, unmasked, exactly as it came (pings are not answered
  /// here); `nil` once the connection ended.
  public func receiveFrame() async -> MockWebSocketFrame? {
    await thread.run { [self] in readFrame() }
  }

  /// The client's next message: fragments joined, inflated when compressed, its pings answered
  /// and pongs passed over; `nil` once the client closed (its close is answered with the same
  /// code) or the connection ended.
  public func receive() async -> WebSocketMessage? {
    await thread.run { [self] in readMessage() }
  }

  /// Like ``receive()``, but gives up once `timeout` passed without the client's next frame
  /// starting to arrive: a script that pushes messages of its own between the client's (a live
  /// feed, say) waits for the client until its next push is due.
  ///
  /// A message whose first frame came in time is read to its end, however long that takes.
  public func receive(timeout: Duration) async -> MockWebSocketReceipt {
    let deadline = ContinuousClock.now + timeout
    return await thread.run { [self] in
      guard let message = readMessage(until: deadline) else {
        return ContinuousClock.now >= deadline && isOpen && !clientCloseSeen
          ? .timedOut : .closed
      }
      return .message(message)
    }
  }

  /// Sends a close frame with `code` and `reason`, then reads (and drops) whatever the client
  /// sends until its close.
  ///
  /// - Returns: The code of the client's close frame (1005 for one without a code), or `nil`
  ///   when the connection ended without one.
  @discardableResult
  public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async throws
    -> WebSocketCloseCode?
  {
    try await send(frame: .close(code.rawValue, reason: reason))
    return await thread.run { [self] in
      while let frame = readFrame() {
        if frame.opcode == 0x8 { return WebSocketCloseCode(rawValue: frame.closeCode ?? 1005) }
      }
      return nil
    }
  }

  /// Waits for `duration`, or less once the server stops.
  public func pause(for duration: Duration) async {
    await thread.run { [self] in _ = MockSocket.pause(duration, wake: wake) }
  }

  /// Ends the connection at once, without a close frame; with `reset`, by a TCP reset.
  public func hangUp(reset: Bool = false) async {
    await thread.run { [self] in
      guard isOpen else { return }
      isOpen = false
      if reset { MockSocket.reset(descriptor) } else { MockSocket.shutDown(descriptor) }
    }
  }

  // MARK: - On the connection's thread

  /// The next message; `nil` once the connection ended or, with a `deadline`, when it passed
  /// before the next frame started to arrive.
  private func readMessage(until deadline: ContinuousClock.Instant? = nil) -> WebSocketMessage? {
    var opcode: UInt8?
    var compressed = false
    var payload = Data()
    while opcode != nil || isNextFrameStarting(by: deadline), let frame = readFrame() {
      switch frame.opcode {
      case 0x9:
        if isOpen {
          _ = MockSocket.send(
            descriptor, MockWebSocketFrame(opcode: 0xA, payload: frame.payload).bytes)
        }
      case 0xA:
        continue
      case 0x8:
        let code = frame.closeCode.map(WebSocketCloseCode.init(rawValue:)) ?? .noStatusReceived
        record(.close(code))
        if isOpen, !clientCloseSeen {
          _ = MockSocket.send(descriptor, MockWebSocketFrame.close(frame.closeCode).bytes)
        }
        clientCloseSeen = true
        return nil
      default:
        if frame.opcode != 0 {
          opcode = frame.opcode
          compressed = frame.reservedBits & 0b100 != 0
          payload = Data()
        }
        payload.append(frame.payload)
        guard frame.isFinal, let opcode else { continue }
        if compressed, let inflater {
          payload =
            (try? inflater.inflate(payload, limit: MockServer.maximumRecordedBodySize))
            ?? Data()
        }
        let message: WebSocketMessage =
          opcode == 0x1 ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
        record(.message(message))
        return message
      }
    }
    return nil
  }

  /// Whether a frame starts arriving before `deadline` (always, without one); when it does
  /// not, the connection is left as it is.
  private func isNextFrameStarting(by deadline: ContinuousClock.Instant?) -> Bool {
    guard let deadline, buffered.isEmpty, isOpen else { return true }
    while true {
      let left = max(.zero, ContinuousClock.now.duration(to: deadline))
      if MockSocket.waitReadable(descriptor, wake: wake, timeout: left) { return true }
      if ContinuousClock.now >= deadline { return false }
      // Woken early: by the server stopping (then `readFrame` finds the end), or by a clock's
      // rounding (then wait for the rest).
      if !MockSocket.pause(.milliseconds(1), wake: wake) { return true }
    }
  }

  private func readFrame() -> MockWebSocketFrame? {
    guard let header = read(2) else { return nil }
    var length = Int(header[1] & 0x7F)
    if length == 126 {
      guard let extended = read(2) else { return nil }
      length = extended.reduce(0) { $0 << 8 | Int($1) }
    } else if length == 127 {
      guard let extended = read(8) else { return nil }
      length = extended.reduce(0) { $0 << 8 | Int($1) }
    }
    let isMasked = header[1] & 0x80 != 0
    guard length <= MockServer.maximumRecordedBodySize,
      let key = isMasked ? read(4) : [0, 0, 0, 0], let masked = read(length)
    else { return nil }
    var payload = Data(count: length)
    for index in 0..<length { payload[index] = masked[index] ^ key[index & 3] }
    return MockWebSocketFrame(
      opcode: header[0] & 0x0F, payload: payload, isFinal: header[0] & 0x80 != 0,
      reservedBits: (header[0] >> 4) & 0b111, isMasked: isMasked)
  }

  private func read(_ count: Int) -> [UInt8]? {
    while buffered.count < count {
      guard isOpen, MockSocket.waitReadable(descriptor, wake: wake, timeout: nil) else {
        return nil
      }
      let bytes = MockSocket.receive(descriptor)
      guard !bytes.isEmpty else {
        isOpen = false
        return nil
      }
      buffered += bytes
    }
    let bytes = Array(buffered[..<count])
    buffered.removeFirst(count)
    return bytes
  }
}

/// What ``MockWebSocket/receive(timeout:)`` got from the client.
public enum MockWebSocketReceipt: Sendable, Hashable {
  /// The client's next message.
  case message(WebSocketMessage)
  /// The client closed, or the connection ended.
  case closed
  /// Nothing started to arrive in time; the WebSocket is still open.
  case timedOut
}
