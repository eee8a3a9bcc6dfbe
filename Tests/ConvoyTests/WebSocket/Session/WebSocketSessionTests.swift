import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

/// A WebSocket's session against a server the test plays frame by frame, on a test clock:
/// pings both ways, keep-alive, violations and their close codes, back-pressure.
@Suite(.timeLimit(.minutes(1))) struct WebSocketSessionTests {
  private let clock = TestClock()
  private let transport = FakeWebSocketTransport()

  private func open(
    options: WebSocketOptions = WebSocketOptions(compression: false, pingInterval: nil),
    extensions: String? = nil
  ) async throws -> (WebSocket, FakeWebSocketChannel) {
    var configuration = ServerConfiguration.local(port: 9)
    configuration.clock = clock
    let connection = ServerConnection(configuration: configuration, transport: transport)
    async let socket = connection.webSocket(WebSocketEndpoint(path: "live", options: options))
    let channel = await transport.nextChannel()
    _ = await channel.acceptUpgrade(extensions: extensions)
    return (try await socket, channel)
  }

  @Test func theServersPingIsAnsweredWithItsPayload() async throws {
    let (socket, channel) = try await open()
    channel.serverSendFrame(0x9, Data("are you there".utf8))
    let pong = await channel.serverReceiveFrame()
    #expect(pong?.opcode == 0xA)
    #expect(pong?.payload == Data("are you there".utf8))
    _ = socket
  }

  @Test func keepAlivePingsComeAtTheirIntervalWhileTheServerAnswers() async throws {
    let (socket, channel) = try await open(
      options: WebSocketOptions(compression: false, pingInterval: 30, pongTimeout: 10))
    for _ in 0..<3 {
      // The next ping is due, not the last one's pong deadline: the pong was taken in.
      #expect(await eventually { clock.pendingWakeUps == [30] })
      clock.advance(by: 30)
      let ping = await channel.serverReceiveFrame()
      #expect(ping?.opcode == 0x9)
      channel.serverSendFrame(0xA, ping?.payload ?? Data())
    }
    try await socket.send(.text("still here"))
    #expect(await channel.serverReceiveFrame()?.payload == Data("still here".utf8))
  }

  @Test func aPingLeftUnansweredFailsTheWebSocket() async throws {
    let (socket, channel) = try await open(
      options: WebSocketOptions(compression: false, pingInterval: 30, pongTimeout: 10))
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 30)
    #expect(await channel.serverReceiveFrame()?.opcode == 0x9)
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 10)
    let error = await #expect(throws: WebSocketError.self) {
      for try await _ in socket.messages {}
    }
    #expect(error?.kind == .timedOut)
    #expect(ErrorMessageProvider.category(of: error!) == .timedOut)
    let close = await channel.serverReceiveFrame()
    #expect(close?.opcode == 0x8)
    #expect(close?.payload.prefix(2) == Data([0x03, 0xE9]))
    // The server neither answers nor closes TCP: the client drops it after the close timeout.
    #expect(!channel.closed)
    clock.advance(by: 5)
    #expect(await eventually { channel.closed })
  }

  @Test func aMaskedFrameFromTheServerIsClosedWith1002() async throws {
    let (socket, channel) = try await open()
    channel.serverSendFrame(0x1, Data("hi".utf8), masked: true)
    let close = await channel.serverReceiveFrame()
    #expect(close?.opcode == 0x8)
    #expect(close?.payload.prefix(2) == Data([0x03, 0xEA]))
    let error = await #expect(throws: WebSocketError.self) {
      for try await _ in socket.messages {}
    }
    #expect(error?.kind == .protocolViolation)
    #expect(error?.closeCode == .protocolError)
  }

  @Test func aCompressedMessageThatInflatesPastTheLimitIsClosedWith1009() async throws {
    let zlib = try ZlibLibrary.shared.get()
    let deflater = try MessageDeflater(zlib: zlib, maximumWindowBits: 15, noContextTakeover: false)
    let bomb = try deflater.deflate(Data(count: 8 << 20))
    let (socket, channel) = try await open(
      options: WebSocketOptions(maximumMessageSize: 1 << 20, pingInterval: nil),
      extensions: "permessage-deflate")
    #expect(socket.isCompressed)
    #expect(bomb.count < 1 << 20)
    channel.serverSendFrame(0x2, bomb, rsv1: true)
    let close = await channel.serverReceiveFrame()
    #expect(close?.payload.prefix(2) == Data([0x03, 0xF1]))
    let error = await #expect(throws: WebSocketError.self) {
      for try await _ in socket.messages {}
    }
    #expect(error?.closeCode == .messageTooBig)
  }

  @Test func messagesWaitingForASlowReaderAllArriveInOrder() async throws {
    let (socket, channel) = try await open(
      options: WebSocketOptions(compression: false, bufferedMessages: 2, pingInterval: nil))
    for number in 0..<5 { channel.serverSendFrame(0x1, Data("\(number)".utf8)) }
    var iterator = socket.messages.makeAsyncIterator()
    var texts: [String] = []
    for _ in 0..<5 {
      if case .text(let text)? = try await iterator.next() { texts.append(text) }
    }
    #expect(texts == ["0", "1", "2", "3", "4"])
    #expect(await eventually { channel.clientIsReading })
  }

  @Test func aFragmentedTextMessageWithAPingBetweenItsFragmentsArrivesWhole() async throws {
    let (socket, channel) = try await open()
    channel.serverSendFrame(0x1, Data("Hel".utf8), fin: false)
    channel.serverSendFrame(0x9, Data())
    channel.serverSendFrame(0x0, Data("lo".utf8))
    var iterator = socket.messages.makeAsyncIterator()
    #expect(try await iterator.next() == .text("Hello"))
    #expect(await channel.serverReceiveFrame()?.opcode == 0xA)
  }

  // MARK: - Limits and faults

  @Test func sendReturnsOnceQueuedAndWaitsForRoomWhenTheServerReadsSlowly() async throws {
    let (socket, channel) = try await open(
      options: WebSocketOptions(
        compression: false, maximumQueuedBytes: 100_000, pingInterval: nil))
    channel.writeBufferSize = 1
    // Too large to be joined into one write: the first is written, the second waits for the
    // socket, the third and fourth are queued (80 kB queued is under the limit, 120 kB is not).
    let message = WebSocketMessage.binary(Data(repeating: 7, count: 40_000))
    for _ in 0..<2 { try await socket.send(message) }
    #expect(await eventually { channel.clientIsBlockedWriting })
    for _ in 0..<2 { try await socket.send(message) }
    let fifth = Task { try await socket.send(message) }
    #expect(await eventually { socket.session.outbox.waitingSenderCount == 1 })
    for _ in 0..<5 {
      let frame = await channel.serverReceiveFrame()
      #expect(frame?.opcode == 0x2)
      #expect(frame?.payload.count == 40_000)
    }
    try await fifth.value
    #expect(socket.session.outbox.waitingSenderCount == 0)
  }

  @Test func closeGoesOutAfterTheMessagesQueuedBeforeIt() async throws {
    let (socket, channel) = try await open()
    for number in 0..<3 { try await socket.send(.text("\(number)")) }
    async let closed: Void = socket.close(code: .normalClosure, reason: "done")
    for number in 0..<3 {
      #expect(await channel.serverReceiveFrame()?.payload == Data("\(number)".utf8))
    }
    #expect(await channel.serverReceiveFrame()?.opcode == 0x8)
    channel.serverSendFrame(0x8, Data([0x03, 0xE8]))
    await closed
    let error = await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
    #expect(error?.kind == .closed)
  }

  @Test func aPingFloodWhileTheClientCannotWriteKeepsOnlyTheLatestPong() async throws {
    let (socket, channel) = try await open()
    channel.writeBufferSize = 1
    let large = Data(repeating: 1, count: 40_000)
    for _ in 0..<2 { try await socket.send(.binary(large)) }
    #expect(await eventually { channel.clientIsBlockedWriting })
    for number in 0..<100 { channel.serverSendFrame(0x9, Data("\(number)".utf8)) }
    // A message sent after the pings were read: the read loop has queued every pong by then
    // only if the flood was taken in, so wait for the last ping's to be the one queued.
    #expect(await eventually { socket.session.outbox.queuedPong == Data("99".utf8) })
    var pongs: [Data] = []
    var messages = 0
    while messages < 2 || pongs.last != Data("99".utf8),
      let frame = await channel.serverReceiveFrame()
    {
      if frame.opcode == 0xA { pongs.append(frame.payload) } else { messages += 1 }
    }
    #expect(messages == 2)
    #expect(pongs == [Data("99".utf8)])
  }

  @Test func aServerSilentForTheIdleTimeoutFailsTheWebSocketWith1001() async throws {
    let (socket, channel) = try await open(
      options: WebSocketOptions(compression: false, idleTimeout: 30, pingInterval: nil))
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 20)
    channel.serverSendFrame(0x1, Data("news".utf8))
    var iterator = socket.messages.makeAsyncIterator()
    #expect(try await iterator.next() == .text("news"))
    // Due at 30, the check finds bytes 10 s old and looks again when they are 30 s old.
    clock.advance(by: 10)
    #expect(await eventually { clock.pendingWakeUps == [20] })
    clock.advance(by: 20)
    let error = await #expect(throws: WebSocketError.self) { _ = try await iterator.next() }
    #expect(error?.kind == .timedOut)
    let close = await channel.serverReceiveFrame()
    #expect(close?.payload.prefix(2) == Data([0x03, 0xE9]))
  }

  @Test func anUpgradeTheServerNeverAnswersTimesOut() async throws {
    var configuration = ServerConfiguration.local(port: 9)
    configuration.clock = clock
    let connection = ServerConnection(configuration: configuration, transport: transport)
    let options = WebSocketOptions(handshakeTimeout: 10, pingInterval: nil)
    let opening = Task {
      try await connection.webSocket(WebSocketEndpoint(path: "live", options: options))
    }
    let channel = await transport.nextChannel()
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 10)
    let error = await #expect(throws: ServerConnectionError.self) { _ = try await opening.value }
    guard case .timedOut? = error else {
      Issue.record("expected timedOut, got \(String(describing: error))")
      return
    }
    #expect(channel.closed)
  }

  @Test func aServerThatVanishesMidFrameFailsAfterEveryWholeMessage() async throws {
    let (socket, channel) = try await open()
    channel.serverSendFrame(0x1, Data("one".utf8))
    channel.serverSendFrame(0x1, Data("two".utf8))
    channel.serverSend(Data([0x81, 0x05, 0x74, 0x68]))
    channel.serverHangUp()
    var received: [WebSocketMessage] = []
    let error = await #expect(throws: WebSocketError.self) {
      for try await message in socket.messages { received.append(message) }
    }
    #expect(received == [.text("one"), .text("two")])
    #expect(error?.kind == .closedAbnormally)
    #expect(ErrorMessageProvider.category(of: error!) == .serverUnreachable)
  }

  @Test(
    arguments: [
      (1011, ErrorCategory.serverFailure), (1012, .serverFailure), (1008, .forbidden),
      (1002, .invalidRequest),
    ] as [(UInt16, ErrorCategory)])
  func aServerClosingWithAFailureCodeEndsTheMessagesWithIt(code: UInt16, category: ErrorCategory)
    async throws
  {
    let (socket, channel) = try await open()
    channel.serverSendFrame(0x1, Data("last".utf8))
    channel.serverSendFrame(0x8, Data([UInt8(code >> 8), UInt8(code & 0xFF)] + Array("why".utf8)))
    var received: [WebSocketMessage] = []
    let error = await #expect(throws: WebSocketError.self) {
      for try await message in socket.messages { received.append(message) }
    }
    #expect(received == [.text("last")])
    #expect(error?.kind == .closedByServer)
    #expect(error?.closeCode?.rawValue == code)
    #expect(ErrorMessageProvider.category(of: error!) == category)
    #expect(socket.closeReason == "why")
    // The close is answered with the code received.
    #expect(await channel.serverReceiveFrame()?.payload.prefix(2) == Data(code.bigEndianBytes))
  }

  @Test(arguments: [1000, 1001, 4000] as [UInt16])
  func aServerClosingNormallyEndsTheMessages(code: UInt16) async throws {
    let (socket, channel) = try await open()
    channel.serverSendFrame(0x8, Data(code.bigEndianBytes))
    for try await _ in socket.messages {}
    #expect(socket.closeCode?.rawValue == code)
  }
}

extension UInt16 {
  fileprivate var bigEndianBytes: [UInt8] { [UInt8(self >> 8), UInt8(self & 0xFF)] }
}
