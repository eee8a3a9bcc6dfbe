import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

/// A WebSocket that reconnects, against servers the test plays on a test clock.
@Suite(.timeLimit(.minutes(1))) struct ReconnectingWebSocketTests {
  private let clock = TestClock()
  private let transport = FakeWebSocketTransport()
  private let events = Recorder<ConvoyEvent>()

  private func connection() -> ServerConnection {
    var configuration = ServerConfiguration.local(port: 9)
    configuration.clock = clock
    configuration.retryPolicy = RetryPolicy(maximumRetries: 0, jitter: 0)
    return ServerConnection(
      configuration: configuration, transport: transport,
      observers: [AnyEventObserver { events.append($0) }])
  }

  private let options = WebSocketOptions(compression: false, pingInterval: nil)

  @Test func aDroppedConnectionIsOpenedAgainAndTheHookSubscribesAgain() async throws {
    let live = connection().reconnectingWebSocket(
      WebSocketEndpoint(path: "live", options: options),
      reconnection: WebSocketReconnection(initialDelay: 2)
    ) { socket in try await socket.send(.text("subscribe")) }
    let reader = Task { try await live.firstMessages(2) }
    let first = await transport.nextChannel()
    _ = await first.acceptUpgrade()
    #expect(await first.serverReceiveFrame()?.payload == Data("subscribe".utf8))
    first.serverSendFrame(0x1, Data("a".utf8))
    first.serverHangUp()
    // Only the wait before reconnecting: no handshake or close timer is left behind.
    #expect(await eventually { clock.pendingWakeUps == [2] })
    clock.advance(by: 2)
    let second = await transport.nextChannel()
    _ = await second.acceptUpgrade()
    #expect(await second.serverReceiveFrame()?.payload == Data("subscribe".utf8))
    second.serverSendFrame(0x1, Data("b".utf8))
    #expect(try await reader.value == [.text("a"), .text("b")])
    let reconnections = events.all.compactMap { event -> ConvoyEvent.StreamReconnecting? in
      guard case .streamReconnecting(let reconnecting) = event.kind else { return nil }
      return reconnecting
    }
    #expect(reconnections.map(\.attempt) == [1])
    #expect(reconnections.map(\.delay) == [2])
  }

  @Test func failuresInARowBackOffAndGiveUpAtTheLimit() async throws {
    let live = connection().reconnectingWebSocket(
      WebSocketEndpoint(path: "live", options: options),
      reconnection: WebSocketReconnection(initialDelay: 1, maximumAttempts: 2))
    let reader = Task { for try await _ in live.messages {} }
    for delay in [1.0, 2.0] {
      let channel = await transport.nextChannel()
      _ = await channel.acceptUpgrade()
      channel.serverHangUp()
      #expect(await eventually { clock.pendingWakeUps == [delay] })
      clock.advance(by: delay)
    }
    let last = await transport.nextChannel()
    _ = await last.acceptUpgrade()
    last.serverHangUp()
    let error = await #expect(throws: WebSocketError.self) { try await reader.value }
    #expect(error?.kind == .closedAbnormally)
  }

  @Test func aNormalCloseFromTheServerEndsTheMessagesForGood() async throws {
    let live = connection().reconnectingWebSocket(
      WebSocketEndpoint(path: "live", options: options))
    let reader = Task {
      var count = 0
      for try await _ in live.messages { count += 1 }
      return count
    }
    let channel = await transport.nextChannel()
    _ = await channel.acceptUpgrade()
    channel.serverSendFrame(0x1, Data("only".utf8))
    channel.serverSendFrame(0x8, Data([0x03, 0xE8]))
    #expect(try await reader.value == 1)
    #expect(!events.all.contains { $0.name == .streamReconnecting })
  }

  @Test func aServerGoingAwayIsFollowedToItsNextLife() async throws {
    let live = connection().reconnectingWebSocket(
      WebSocketEndpoint(path: "live", options: options),
      reconnection: WebSocketReconnection(initialDelay: 1))
    let reader = Task {
      var iterator = live.messages.makeAsyncIterator()
      return try await iterator.next()
    }
    let first = await transport.nextChannel()
    _ = await first.acceptUpgrade()
    first.serverSendFrame(0x8, Data([0x03, 0xE9]))
    #expect(await eventually { clock.pendingWakeUps.contains(1) })
    clock.advance(by: 1)
    let second = await transport.nextChannel()
    _ = await second.acceptUpgrade()
    second.serverSendFrame(0x1, Data("back".utf8))
    #expect(try await reader.value == .text("back"))
    // Closing stops reconnecting: the close goes out and the server's answer ends it.
    async let closed: Void = live.close()
    #expect(await second.serverReceiveFrame()?.opcode == 0x8)
    second.serverSendFrame(0x8, Data([0x03, 0xE8]))
    await closed
    #expect(live.webSocket?.closeCode == .normalClosure)
  }

  @Test func closingDuringTheWaitBeforeReconnectingEndsTheMessagesAtOnce() async throws {
    let live = connection().reconnectingWebSocket(
      WebSocketEndpoint(path: "live", options: options),
      reconnection: WebSocketReconnection(initialDelay: 30))
    let reader = Task {
      var count = 0
      for try await _ in live.messages { count += 1 }
      return count
    }
    let channel = await transport.nextChannel()
    _ = await channel.acceptUpgrade()
    channel.serverHangUp()
    #expect(await eventually { clock.pendingWakeUps == [30] })
    await live.close()
    // The clock never moves: the messages end because of the close, not the wait.
    #expect(try await reader.value == 0)
    #expect(clock.pendingWakeUps.isEmpty)
  }
}
