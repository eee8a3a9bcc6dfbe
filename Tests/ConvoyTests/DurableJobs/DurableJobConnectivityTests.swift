import Convoy
import ConvoyTesting
import Foundation
import Testing

private struct Report: DurableRequest {
  static let durableName = "report"
  typealias Response = EmptyResponse
  var method: HTTPMethod { .post }
  var path: String { "reports" }
}

/// Durable jobs and the network: a step waits for it rather than failing, and a step that failed
/// offline goes again when it returns, not when a back-off timer says.
@Suite(.timeLimit(.minutes(1))) struct DurableJobConnectivityTests {
  private let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-offline-\(UUID().uuidString)", isDirectory: true)
  private let clock = TestClock()
  private let network = SimulatedConnectivity(.offline)

  private func queue(
    events: Recorder<ConvoyEvent>, baseURL: String = "https://api.example.com/",
    answer: @escaping @Sendable (TransportRequest) -> StubAnswer
  ) -> (DurableJobQueue, StubTransport) {
    let transport = StubTransport(respond: answer)
    transport.clock = clock
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: baseURL)!)
    configuration.clock = clock
    configuration.retryPolicy = .never
    let queue = DurableJobQueue(
      connection: ServerConnection(
        configuration: configuration, transport: transport,
        observers: [AnyEventObserver { events.append($0) }], connectivityMonitor: network),
      fileURL: directory.appendingPathComponent("jobs.journal"))
    queue.register(Report.self)
    return (queue, transport)
  }

  private func changes(_ events: Recorder<ConvoyEvent>) -> [ConvoyEvent.DurableJobChanged.Change] {
    events.all.compactMap { event in
      guard case .durableJob(let changed) = event.kind else { return nil }
      return changed.change
    }
  }

  private func outcome(of queue: DurableJobQueue) async -> DurableJobOutcome? {
    for await outcome in queue.outcomes() { return outcome }
    return nil
  }

  @Test func aJobAddedOfflineWaitsForTheNetworkAndIsSentWhenItReturns() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = Recorder<ConvoyEvent>()
    let (queue, transport) = queue(events: events) { _ in .status(201) }
    try await queue.start()
    try await queue.add(try DurableJob(steps: [.request(Report())]))
    #expect(await eventually { changes(events).contains(.waitingForConnectivity) })
    #expect(transport.requests.isEmpty)
    network.goOnline()
    #expect(await outcome(of: queue)?.ending == .succeeded)
    #expect(transport.requests.count == 1)
    #expect(changes(events) == [.accepted, .waitingForConnectivity, .stepFinished, .succeeded])
    queue.stop()
  }

  @Test func aStepThatFailedOfflineGoesAgainWhenTheNetworkReturnsNotAfterItsBackOff() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    network.goOnline()
    let events = Recorder<ConvoyEvent>()
    let attempts = Locked(0)
    let (queue, transport) = queue(events: events) { [network] _ in
      let attempt = attempts.withLock {
        $0 += 1
        return $0
      }
      guard attempt == 1 else { return .status(201) }
      // The network goes as the first attempt is on its way.
      network.goOffline()
      return .failure(TransportFailure(kind: .notConnectedToInternet, detail: "offline"))
    }
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(Report())],
        constraints: DurableJobConstraints(baseDelay: 1000, maximumDelay: 1000)))
    #expect(await eventually { changes(events).contains(.waitingForConnectivity) })
    network.goOnline()
    // The test clock never moves: only the network's return can have sent the second attempt.
    #expect(await outcome(of: queue)?.ending == .succeeded)
    #expect(transport.requests.count == 2)
    queue.stop()
  }

  @Test func aJobThatNeedsNoNetworkIsSentOfflineAnyway() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = Recorder<ConvoyEvent>()
    let (queue, transport) = queue(events: events) { _ in .status(201) }
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(Report())],
        constraints: DurableJobConstraints(needsConnectivity: false)))
    #expect(await outcome(of: queue)?.ending == .succeeded)
    #expect(transport.requests.count == 1)
    #expect(!changes(events).contains(.waitingForConnectivity))
    queue.stop()
  }

  @Test func constraintsKeptByAnEarlierVersionGetTheDefaultsOfFieldsItDidNotWrite() throws {
    let old = Data(#"{"maximumAttempts":3,"baseDelay":2,"maximumDelay":10}"#.utf8)
    let constraints = try JSONDecoder().decode(DurableJobConstraints.self, from: old)
    #expect(constraints.maximumAttempts == 3)
    #expect(constraints.needsConnectivity)
    #expect(constraints.expiresAt == nil)
  }

  @Test func stoppingAQueueThatWaitsForTheNetworkKeepsTheJobForTheNextStart() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = Recorder<ConvoyEvent>()
    let (first, transport) = queue(events: events) { _ in .status(201) }
    try await first.start()
    let job = try DurableJob(steps: [.request(Report())])
    try await first.add(job)
    #expect(await eventually { changes(events).contains(.waitingForConnectivity) })
    first.stop()
    network.goOnline()
    #expect(transport.requests.isEmpty)
    let (second, _) = queue(events: events) { _ in .status(201) }
    try await second.start()
    #expect(await outcome(of: second)?.jobID == job.id)
    second.stop()
  }

  @Test func aServerOnThisMachineNeedsNoNetwork() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let events = Recorder<ConvoyEvent>()
    let (queue, transport) = queue(events: events, baseURL: "http://127.0.0.1:8080/") { _ in
      .status(201)
    }
    try await queue.start()
    try await queue.add(try DurableJob(steps: [.request(Report())]))
    #expect(await outcome(of: queue)?.ending == .succeeded)
    #expect(transport.requests.count == 1)
    #expect(!changes(events).contains(.waitingForConnectivity))
    queue.stop()
  }
}
