import ConvoyTesting
import Foundation

@testable import Convoy

/// Both ends of an in-memory connection: the client's side is the ``WebSocketChannel`` Convoy
/// reads and writes; the test plays the server on the other side, frame by frame.
///
/// Once receiving starts, bytes go to the session's handler on a serial queue of the fake's own,
/// as a real channel hands them over on its thread.
final class FakeWebSocketChannel: WebSocketChannel, @unchecked Sendable {
  private let lock = NSLock()
  private let queue = DispatchQueue(label: "FakeWebSocketChannel")
  private var toClient = Data()
  private var fromClient = Data()
  private var isClosed = false
  private var clientReader: CheckedContinuation<Result<Data?, TransportFailure>, Never>?
  private var serverReader: CheckedContinuation<Void, Never>?
  private var handler: (@Sendable (WebSocketChannelEvent) -> Void)?
  private var isPaused = false
  private var serverHungUp = false
  private var endDelivered = false
  private var wantsWritable = false
  private var bufferSize = Int.max

  /// Whether the client takes bytes in: it receives and has not paused (a full inbox pauses).
  var clientIsReading: Bool {
    lock.withLock { (handler != nil || clientReader != nil) && !isPaused }
  }
  var closed: Bool { lock.withLock { isClosed } }
  /// Whether the client found the "socket buffer" full and waits to be told it takes more.
  var clientIsBlockedWriting: Bool { lock.withLock { wantsWritable } }

  /// While the server has this many bytes unread, the client's `send` takes nothing more.
  var writeBufferSize: Int {
    get { lock.withLock { bufferSize } }
    set { lock.withLock { bufferSize = newValue } }
  }

  func write(_ bytes: Data) async throws(TransportFailure) {
    let (reader, closed) = lock.withLock { () -> (CheckedContinuation<Void, Never>?, Bool) in
      guard !isClosed else { return (nil, true) }
      fromClient.append(bytes)
      defer { serverReader = nil }
      return (serverReader, false)
    }
    if closed { throw TransportFailure(kind: .cancelled, detail: "closed") }
    reader?.resume()
  }

  func read() async throws(TransportFailure) -> Data? {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Data?, TransportFailure>, Never>) in
      let ready = lock.withLock { () -> Result<Data?, TransportFailure>? in
        if !toClient.isEmpty {
          defer { toClient = Data() }
          return .success(toClient)
        }
        if isClosed { return .failure(TransportFailure(kind: .cancelled, detail: "closed")) }
        if serverHungUp { return .success(nil) }
        clientReader = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
    return try result.get()
  }

  func startReceiving(_ handler: @escaping @Sendable (WebSocketChannelEvent) -> Void) {
    lock.withLock { self.handler = handler }
    deliver()
  }

  func setReceivingPaused(_ paused: Bool) {
    lock.withLock { isPaused = paused }
    if !paused { deliver() }
  }

  func send(_ bytes: Data) throws(TransportFailure) -> Int {
    let outcome = lock.withLock { () -> (Int?, CheckedContinuation<Void, Never>?) in
      guard !isClosed else { return (nil, nil) }
      guard fromClient.count < bufferSize else {
        wantsWritable = true
        return (0, nil)
      }
      fromClient.append(bytes)
      defer { serverReader = nil }
      return (bytes.count, serverReader)
    }
    guard let written = outcome.0 else {
      throw TransportFailure(kind: .cancelled, detail: "closed")
    }
    outcome.1?.resume()
    return written
  }

  func close() {
    let (client, server) = lock.withLock {
      () -> (
        CheckedContinuation<Result<Data?, TransportFailure>, Never>?,
        CheckedContinuation<Void, Never>?
      ) in
      isClosed = true
      handler = nil
      defer { (clientReader, serverReader) = (nil, nil) }
      return (clientReader, serverReader)
    }
    client?.resume(returning: .failure(TransportFailure(kind: .cancelled, detail: "closed")))
    server?.resume()
  }

  /// Hands what the server sent to the client's handler, on the fake's queue.
  private func deliver() {
    queue.async { [self] in
      let (receiver, bytes, ends) = lock.withLock {
        () -> ((@Sendable (WebSocketChannelEvent) -> Void)?, Data, Bool) in
        guard let handler = self.handler, !isPaused, !isClosed else { return (nil, Data(), false) }
        defer { toClient = Data() }
        let ends = serverHungUp && !endDelivered
        if ends { endDelivered = true }
        return (handler, toClient, ends)
      }
      if !bytes.isEmpty { receiver?(.received(bytes)) }
      if ends { receiver?(.ended) }
    }
  }

  // MARK: - The server's side

  /// Sends `bytes` to the client.
  func serverSend(_ bytes: Data) {
    let reader = lock.withLock {
      () -> CheckedContinuation<Result<Data?, TransportFailure>, Never>? in
      guard let reader = clientReader else {
        toClient.append(bytes)
        return nil
      }
      clientReader = nil
      return reader
    }
    if let reader { return reader.resume(returning: .success(bytes)) }
    deliver()
  }

  /// Ends the connection from the server's side, after what it sent.
  func serverHangUp() {
    let reader = lock.withLock {
      () -> CheckedContinuation<Result<Data?, TransportFailure>, Never>? in
      serverHungUp = true
      defer { clientReader = nil }
      return clientReader
    }
    reader?.resume(returning: .success(nil))
    deliver()
  }

  /// Takes `count` bytes the client sent, waiting for them; `nil` once closed without them.
  func serverReceive(_ count: Int) async -> Data? {
    while true {
      let taken = lock.withLock { () -> Data?? in
        if fromClient.count >= count {
          defer { fromClient.removeFirst(count) }
          return .some(Data(fromClient.prefix(count)))
        }
        return isClosed ? .some(nil) : nil
      }
      if let taken {
        // Room in the "socket buffer" again: a client that found it full may go on.
        let writable = lock.withLock { () -> (@Sendable (WebSocketChannelEvent) -> Void)? in
          guard wantsWritable, fromClient.count < bufferSize else { return nil }
          wantsWritable = false
          return handler
        }
        if let writable { queue.async { writable(.writable) } }
        return taken
      }
      await withCheckedContinuation { continuation in
        let wait = lock.withLock {
          guard fromClient.count < count, !isClosed else { return false }
          serverReader = continuation
          return true
        }
        if !wait { continuation.resume() }
      }
    }
  }

  /// Reads the upgrade request and answers it: `101` with the right accept key, the agreed
  /// `extensions` field when given; returns the request's head.
  func acceptUpgrade(extensions: String? = nil) async -> String {
    var head = Data()
    while !head.suffix(4).elementsEqual(Data("\r\n\r\n".utf8)), let byte = await serverReceive(1) {
      head.append(byte)
    }
    let text = String(decoding: head, as: UTF8.self)
    let key =
      text.components(separatedBy: "\r\n")
      .first { $0.lowercased().hasPrefix("sec-websocket-key:") }?
      .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? ""
    var answer =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(WebSocketHandshake.accept(for: key))\r\n"
    if let extensions { answer += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
    serverSend(Data((answer + "\r\n").utf8))
    return text
  }

  /// Sends one frame as a server does (unmasked).
  func serverSendFrame(
    _ opcode: UInt8, _ payload: Data, fin: Bool = true, rsv1: Bool = false, masked: Bool = false
  ) {
    var bytes = Data([(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode])
    let maskBit: UInt8 = masked ? 0x80 : 0
    if payload.count < 126 {
      bytes.append(maskBit | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
      bytes.append(maskBit | 126)
      bytes.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
    } else {
      bytes.append(maskBit | 127)
      bytes.append(contentsOf: (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) })
    }
    if masked { bytes.append(contentsOf: [0, 0, 0, 0]) }
    bytes.append(payload)
    serverSend(bytes)
  }

  /// The next frame the client sent, unmasked: its opcode and payload.
  func serverReceiveFrame() async -> (opcode: UInt8, payload: Data)? {
    guard let header = await serverReceive(2) else { return nil }
    var length = Int(header[header.startIndex + 1] & 0x7F)
    if length == 126, let extended = await serverReceive(2) {
      length = extended.reduce(0) { $0 << 8 | Int($1) }
    } else if length == 127, let extended = await serverReceive(8) {
      length = extended.reduce(0) { $0 << 8 | Int($1) }
    }
    guard let mask = await serverReceive(4), let masked = await serverReceive(length) else {
      return nil
    }
    let key = Array(mask)
    let payload = Data(masked.enumerated().map { $0.element ^ key[$0.offset % 4] })
    return (header[header.startIndex] & 0x0F, payload)
  }
}

/// A transport whose WebSockets are ``FakeWebSocketChannel``s the test plays the server of.
final class FakeWebSocketTransport: HTTPTransport, WebSocketChannelOpening, @unchecked Sendable {
  private let lock = NSLock()
  private var opened: [FakeWebSocketChannel] = []
  private var waiter: CheckedContinuation<FakeWebSocketChannel, Never>?
  private var refusing = false
  private var attempts = 0

  /// Set to refuse every connection, as a network that is down does.
  var refusesConnections: Bool {
    get { lock.withLock { refusing } }
    set { lock.withLock { refusing = newValue } }
  }

  /// How many connections were asked for, refused ones included.
  var connectionAttempts: Int { lock.withLock { attempts } }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    throw TransportFailure(kind: .other, detail: "this transport only opens WebSockets")
  }

  func openWebSocketChannel(to url: URL, timeout: TimeInterval) async throws(TransportFailure)
    -> any WebSocketChannel
  {
    let refused = lock.withLock {
      attempts += 1
      return refusing
    }
    if refused { throw TransportFailure(kind: .cannotConnectToHost, detail: "Couldn't connect") }
    let channel = FakeWebSocketChannel()
    let waiter = lock.withLock { () -> CheckedContinuation<FakeWebSocketChannel, Never>? in
      guard let waiter = self.waiter else {
        opened.append(channel)
        return nil
      }
      self.waiter = nil
      return waiter
    }
    waiter?.resume(returning: channel)
    return channel
  }

  /// The next channel a WebSocket opens, waiting for it.
  func nextChannel() async -> FakeWebSocketChannel {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock { () -> FakeWebSocketChannel? in
        guard !opened.isEmpty else {
          waiter = continuation
          return nil
        }
        return opened.removeFirst()
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}

extension ReconnectingWebSocket {
  /// The first `count` messages, across reconnections.
  func firstMessages(_ count: Int) async throws -> [WebSocketMessage] {
    var received: [WebSocketMessage] = []
    for try await message in messages {
      received.append(message)
      if received.count == count { break }
    }
    return received
  }
}
