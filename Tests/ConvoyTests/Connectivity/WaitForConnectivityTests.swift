import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct WaitForConnectivityTests {
  @Test func aCallMadeOfflineWaitsAndGoesWhenTheNetworkReturns() async throws {
    let network = SimulatedConnectivity(.offline)
    let transport = StubTransport { _ in .json(["ok": true]) }
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(transport, network: network, clock: TestClock(), events: events)
    let call = Task { try await connection.execute(WaitingRequest()) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    #expect(transport.requests.isEmpty)
    network.goOnline()
    let answer = try await call.value
    #expect(answer.response.statusCode == 200)
    #expect(transport.requests.count == 1)
  }

  @Test func aCallWhoseDeadlinePassesOfflineFailsOfflineWithASentence() async throws {
    let network = SimulatedConnectivity(.offline)
    let clock = TestClock()
    let transport = StubTransport { _ in .json([:]) }
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(
      transport, network: network, clock: clock, timeout: 30, events: events)
    let call = Task { try await connection.execute(WaitingRequest()) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    #expect(await clock.waitForWakeUp(in: 30))
    clock.advance(by: 30)
    let error = await #expect(throws: ServerConnectionError.self) { try await call.value }
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected an offline failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .notConnectedToInternet)
    #expect(ErrorMessageProvider.category(of: error!) == .offline)
    #expect(ErrorMessageProvider.standard.message(for: error!)?.text.isEmpty == false)
    #expect(transport.requests.isEmpty)
    let waiting = events.withLock { events in
      events.compactMap { event -> ConvoyEvent.RequestWaitingForConnectivity? in
        guard case .requestWaitingForConnectivity(let waiting) = event.kind else { return nil }
        return waiting
      }
    }
    #expect(waiting.map(\.attempt) == [1])
    #expect(waiting.first?.timeLeft == 30)
  }

  @Test func cancellingTheCallEndsTheWait() async {
    let network = SimulatedConnectivity(.offline)
    let events = Locked<[ConvoyEvent]>([])
    let transport = StubTransport { _ in .json([:]) }
    let connection = connection(transport, network: network, clock: TestClock(), events: events)
    let call = Task { try await connection.execute(WaitingRequest()) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    call.cancel()
    let error = await #expect(throws: ServerConnectionError.self) { try await call.value }
    #expect(error == .cancelled)
    #expect(transport.requests.isEmpty)
  }

  @Test func cancellingAJobsTokenEndsTheWaitOfItsStep() async {
    let network = SimulatedConnectivity(.offline)
    let events = Locked<[ConvoyEvent]>([])
    let transport = StubTransport { _ in .json([:]) }
    let connection = connection(transport, network: network, clock: TestClock(), events: events)
    let outcome = Outcome<Result<DataResponse, any Error>>()
    let token = connection.run(connection.operation(for: WaitingRequest())) {
      outcome.record($0)
    }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    token.cancel()
    let result = await outcome.first()
    #expect((try? result?.get()) == nil)
    #expect(
      result.map { if case .failure(let error) = $0 { error.isCancellation } else { false } }
        == true)
    #expect(transport.requests.isEmpty)
  }

  @Test func aRetryAfterAnOfflineFailureGoesWhenTheNetworkReturnsNotAfterTheBackOff() async throws {
    let network = SimulatedConnectivity(.online)
    let clock = TestClock()
    let calls = Locked(0)
    // The first attempt fails as the network goes away (the monitor hears of it first);
    // the second, once it is back, succeeds.
    let transport = StubTransport { _ in
      guard calls.next() == 0 else { return .json(["ok": true]) }
      network.goOffline()
      return refused
    }
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(
      transport, network: network, clock: clock,
      retryPolicy: RetryPolicy(maximumRetries: 2, baseDelay: 10, jitter: 0), events: events)
    let call = Task { try await connection.execute(WaitingRequest()) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    #expect(!clock.pendingWakeUps.contains(10))
    network.goOnline()
    // The clock never moves: the retry went with the network, not after its 10 s back-off.
    let answer = try await call.value
    #expect(answer.response.statusCode == 200)
    #expect(transport.requests.count == 2)
    #expect(!events.withLock { $0.contains { $0.name == .requestRetried } })
  }

  @Test func aCallThatDoesNotWaitFailsOfflineAtOnce() async {
    let network = SimulatedConnectivity(.offline)
    let transport = StubTransport { _ in refused }
    let connection = connection(transport, network: network, clock: TestClock(), waits: false)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(WaitingRequest())
    }
    // Sent once, never retried while offline, and reported as offline although the transport
    // said "couldn't connect".
    #expect(transport.requests.count == 1)
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected an offline failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .notConnectedToInternet)
    #expect(ErrorMessageProvider.category(of: error!) == .offline)
  }

  @Test func aRequestMayOptOutOfTheConnectionsWait() async {
    let network = SimulatedConnectivity(.offline)
    let transport = StubTransport { _ in refused }
    let connection = connection(transport, network: network, clock: TestClock(), waits: true)
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(WaitingRequest(waitsForConnectivity: false))
    }
    #expect(transport.requests.count == 1)
  }

  @Test func aRequestMayOptInWhenTheConnectionDoesNotWait() async throws {
    let network = SimulatedConnectivity(.offline)
    let transport = StubTransport { _ in .json([:]) }
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(
      transport, network: network, clock: TestClock(), waits: false, events: events)
    let call = Task { try await connection.execute(WaitingRequest(waitsForConnectivity: true)) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    network.goOnline()
    _ = try await call.value
    #expect(transport.requests.count == 1)
  }

  @Test func anUnknownStateNeverHoldsACall() async throws {
    let network = SimulatedConnectivity(.unknown)
    let transport = StubTransport { _ in .json([:]) }
    let connection = connection(transport, network: network, clock: TestClock())
    _ = try await connection.execute(WaitingRequest())
    #expect(transport.requests.count == 1)
  }

  @Test func aConnectFailureWhileOnlineKeepsItsKindAndItsBackOff() async throws {
    let network = SimulatedConnectivity(.online)
    let clock = TestClock()
    let transport = StubTransport { _ in refused }
    let connection = connection(
      transport, network: network, clock: clock,
      retryPolicy: RetryPolicy(maximumRetries: 1, baseDelay: 10, jitter: 0))
    let call = Task { try await connection.execute(WaitingRequest()) }
    #expect(await clock.waitForWakeUp(in: 10))
    clock.advance(by: 10)
    let error = await #expect(throws: ServerConnectionError.self) { try await call.value }
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .cannotConnectToHost)
    #expect(transport.requests.count == 2)
  }
}

@Suite(.timeLimit(.minutes(1))) struct LoopbackConnectivityTests {
  @Test func aCallToThisMachineNeitherWaitsNorTurnsARefusalIntoOffline() async {
    let network = SimulatedConnectivity(.offline)
    let transport = StubTransport { _ in refused }
    var configuration = ServerConfiguration.local(port: 9)
    configuration.waitsForConnectivity = true
    configuration.retryPolicy = .never
    let connection = ServerConnection(
      configuration: configuration, transport: transport, connectivityMonitor: network)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(WaitingRequest())
    }
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .cannotConnectToHost)
    #expect(transport.requests.count == 1)
  }
}

@Suite(.timeLimit(.minutes(1))) struct DroppedWhileOfflineTests {
  @Test func aDroppedConnectionWhileOfflineIsRetriedWhenTheNetworkReturns() async throws {
    let network = SimulatedConnectivity(.online)
    let clock = TestClock()
    let calls = Locked(0)
    let transport = StubTransport { _ in
      guard calls.next() == 0 else { return .json([:]) }
      network.goOffline()
      return .failure(TransportFailure(kind: .networkConnectionLost, detail: "reset"))
    }
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(transport, network: network, clock: clock, events: events)
    let call = Task { try await connection.execute(WaitingRequest()) }
    #expect(await events.arrival(of: .requestWaitingForConnectivity))
    network.goOnline()
    _ = try await call.value
    #expect(transport.requests.count == 2)
  }

  @Test func aDroppedConnectionWhileOfflineIsNotRetriedWhenThePolicySaysNever() async {
    let network = SimulatedConnectivity(.online)
    let transport = StubTransport { _ in
      network.goOffline()
      return .failure(TransportFailure(kind: .networkConnectionLost, detail: "reset"))
    }
    let connection = connection(
      transport, network: network, clock: TestClock(), retryPolicy: .never)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(WaitingRequest())
    }
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    // Not one that never left: it keeps its kind.
    #expect(failure.kind == .networkConnectionLost)
    #expect(transport.requests.count == 1)
  }
}
