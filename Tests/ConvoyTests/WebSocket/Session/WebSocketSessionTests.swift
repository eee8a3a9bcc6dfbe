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
    #expect(error?.kind == .closedAbnormally)
    #expect(channel.closed)
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
}
