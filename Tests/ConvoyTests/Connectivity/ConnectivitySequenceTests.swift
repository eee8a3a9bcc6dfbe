import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct ConnectivitySequenceTests {
  @Test func theSequenceYieldsTheCurrentStateThenEveryChange() async {
    let network = SimulatedConnectivity(.online)
    let connection = connection(
      StubTransport { _ in .json([:]) }, network: network, clock: TestClock())
    var states = connection.connectivity.makeAsyncIterator()
    #expect(await states.next() == .online)
    network.goOffline()
    #expect(await states.next() == .offline)
    network.goOffline()
    network.goOnline()
    // Setting the same state twice reports nothing.
    #expect(await states.next() == .online)
  }

  @Test func aLateSubscriberStartsWithTheStateOfNow() async {
    let network = SimulatedConnectivity(.online)
    network.goOffline()
    let connection = connection(
      StubTransport { _ in .json([:]) }, network: network, clock: TestClock())
    var states = connection.connectivity.makeAsyncIterator()
    #expect(await states.next() == .offline)
  }

  @Test func aConnectionOnATransportOfItsOwnHasNoMonitorAndYieldsUnknownOnce() async {
    let connection = ServerConnection(
      configuration: .local(port: 8080), transport: StubTransport { _ in .json([:]) })
    #expect(connection.connectivityMonitor == nil)
    var states: [Connectivity] = []
    for await state in connection.connectivity { states.append(state) }
    #expect(states == [.unknown])
  }

  @Test func everyChangeIsAnEventOfTheConnection() async {
    let network = SimulatedConnectivity(.online)
    let events = Locked<[ConvoyEvent]>([])
    let connection = connection(
      StubTransport { _ in .json([:]) }, network: network, clock: TestClock(), events: events)
    let changes = {
      events.withLock {
        $0.compactMap { event -> Connectivity? in
          guard case .connectivityChanged(let change) = event.kind else { return nil }
          return change.connectivity
        }
      }
    }
    #expect(await eventually { changes() == [.online] })
    network.goOffline()
    #expect(await eventually { changes() == [.online, .offline] })
    withExtendedLifetime(connection) {}
  }

  @Test func theLoggersSayWhatChanged() throws {
    let event = ConvoyEvent(.connectivityChanged(.init(connectivity: .offline)))
    #expect(ConsoleLogger.line(for: event) == "network offline")
    #expect(LogLevel(event.name) == .warning)
    #expect(event.call == nil)
    let line = try #require(
      JSONSerialization.jsonObject(with: JSONLinesLogger.encode(event)) as? [String: Any])
    #expect(line["event"] as? String == "connectivity.changed")
    #expect(line["connectivity"] as? String == "offline")
  }

  @Test func theLoggersSayACallWaitsAndForHowLongAtMost() throws {
    let call = ConvoyEvent.CallIdentity(id: 7, jobID: nil, method: .get)
    let event = ConvoyEvent(
      .requestWaitingForConnectivity(
        .init(
          call: call, url: URL(string: "https://api.example.com/sync?token=secret"), attempt: 2,
          timeLeft: 12.5)))
    #expect(ConsoleLogger.line(for: event) == "#7 attempt 2 waits for the network, at most 12.5 s")
    #expect(event.call == call)
    let line = try #require(
      JSONSerialization.jsonObject(with: JSONLinesLogger.encode(event)) as? [String: Any])
    #expect(line["event"] as? String == "request.waitingForConnectivity")
    #expect(line["time_left_ms"] as? Double == 12_500)
    #expect((line["url"] as? String)?.contains("secret") == false)
  }
}
