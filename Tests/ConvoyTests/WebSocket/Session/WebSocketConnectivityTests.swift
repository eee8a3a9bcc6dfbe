import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

/// WebSockets and the network going away: opening may wait for it, a refusal while offline is
/// reported as offline, and a reconnecting WebSocket waits for the network, not a timer.
@Suite(.timeLimit(.minutes(1))) struct WebSocketConnectivityTests {
  private let clock = TestClock()
  private let transport = FakeWebSocketTransport()
  private let network = SimulatedConnectivity(.offline)
  private let events = Locked<[ConvoyEvent]>([])
  private let endpoint = WebSocketEndpoint(
    path: "live", options: WebSocketOptions(compression: false, pingInterval: nil))

  /// A connection to a server that is not this machine, so that it needs the network.
  private func connection(waits: Bool) -> ServerConnection {
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/")!, timeout: 30,
      retryPolicy: RetryPolicy(maximumRetries: 0, jitter: 0), clock: clock)
    configuration.waitsForConnectivity = waits
    return ServerConnection(
      configuration: configuration, transport: transport,
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }],
      connectivityMonitor: network)
  }

  @Test func openingOfflineWaitsAndConnectsWhenTheNetworkReturns() async throws {
    let connection = connection(waits: true)
    let opening = Task { try await connection.webSocket(endpoint) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    #expect(transport.connectionAttempts == 0)
    network.goOnline()
    let channel = await transport.nextChannel()
    _ = await channel.acceptUpgrade()
    let socket = try await opening.value
    #expect(socket.closeCode == nil)
    channel.serverHangUp()
  }

  @Test func openingThatWaitsFailsOfflineWhenTheHandshakeTimeoutPasses() async throws {
    let connection = connection(waits: true)
    let opening = Task { try await connection.webSocket(endpoint) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    #expect(await clock.waitForWakeUp(in: 30))
    clock.advance(by: 30)
    let error = await #expect(throws: ServerConnectionError.self) { try await opening.value }
    #expect(error.map(ErrorMessageProvider.category(of:)) == .offline)
    #expect(transport.connectionAttempts == 0)
  }

  @Test func aRefusalWhileOfflineIsReportedAsOffline() async throws {
    transport.refusesConnections = true
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection(waits: false).webSocket(endpoint)
    }
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .notConnectedToInternet)
  }

  @Test func aReconnectingWebSocketWaitsForTheNetworkNotABackOff() async throws {
    network.goOnline()
    let live = connection(waits: false).reconnectingWebSocket(
      endpoint, reconnection: WebSocketReconnection(initialDelay: 5))
    let reader = Task { try await live.firstMessages(2) }
    let first = await transport.nextChannel()
    _ = await first.acceptUpgrade()
    first.serverSendFrame(0x1, Data("a".utf8))
    // The network goes, and the connection with it.
    network.goOffline()
    first.serverHangUp()
    let waiting = await eventually {
      events.withLock { events in
        events.contains { event in
          guard case .streamReconnecting(let reconnecting) = event.kind else { return false }
          return reconnecting.reason.hasPrefix("offline")
        }
      }
    }
    #expect(waiting)
    // No timer: the network's return, not the back-off, says when.
    #expect(clock.pendingWakeUps.isEmpty)
    #expect(transport.connectionAttempts == 1)
    network.goOnline()
    let second = await transport.nextChannel()
    _ = await second.acceptUpgrade()
    second.serverSendFrame(0x1, Data("b".utf8))
    #expect(try await reader.value == [.text("a"), .text("b")])
    async let closed: Void = live.close()
    #expect(await second.serverReceiveFrame()?.opcode == 0x8)
    second.serverSendFrame(0x8, Data([0x03, 0xE8]))
    await closed
  }

  @Test func closingWhileWaitingForTheNetworkEndsTheMessages() async throws {
    network.goOnline()
    let live = connection(waits: false).reconnectingWebSocket(endpoint)
    let reader = Task {
      var count = 0
      for try await _ in live.messages { count += 1 }
      return count
    }
    let first = await transport.nextChannel()
    _ = await first.acceptUpgrade()
    network.goOffline()
    first.serverHangUp()
    #expect(await eventually { events.withLock { $0.contains { $0.name == .streamReconnecting } } })
    await live.close()
    #expect(try await reader.value == 0)
    #expect(transport.connectionAttempts == 1)
  }
}
