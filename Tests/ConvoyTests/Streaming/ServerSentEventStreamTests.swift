import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reconnection rules of ``ServerSentEventStream``, on a stub server.
@Suite struct ServerSentEventStreamTests {
  private static let eventStream: HTTPHeaders = ["Content-Type": "text/event-stream"]

  private static func events(_ text: String) -> StubAnswer {
    .response(status: 200, headers: eventStream, body: Data(text.utf8))
  }

  private static let fastReconnects = EventStreamOptions(
    reconnectionDelay: 0.01, maximumReconnectionDelay: 0.05, maximumReconnections: 5)

  @Test func reconnectsWithTheLastEventIDUntilTheServerSays204() async throws {
    let answers = StubAnswer.sequence([
      Self.events("retry: 10\nid: 1\ndata: one\n\nid: 2\ndata: two\n\n"),
      Self.events("id: 3\ndata: three\n\n"),
      .status(204),
    ])
    let transport = StubTransport { _ in answers }
    var received: [String] = []
    for try await event in stubConnection(transport).events(
      RawStubCall(path: "feed"), options: Self.fastReconnects)
    {
      received.append(event.data)
    }
    #expect(received == ["one", "two", "three"])
    let lastIDs = transport.requests.map {
      $0.urlRequest.value(forHTTPHeaderField: "Last-Event-ID")
    }
    #expect(lastIDs == [nil, "2", "3"])
    #expect(
      transport.requests.allSatisfy {
        $0.urlRequest.value(forHTTPHeaderField: "Accept") == "text/event-stream"
      })
  }

  @Test func theLastEventIDCarriesOverToEventsOfTheNextConnection() async throws {
    let answers = StubAnswer.sequence([
      Self.events("id: 7\ndata: a\n\n"), Self.events("data: b\n\n"), .status(204),
    ])
    var ids: [String?] = []
    for try await event in stubConnection(StubTransport { _ in answers }).events(
      RawStubCall(path: "feed"), options: Self.fastReconnects)
    {
      ids.append(event.id)
    }
    #expect(ids == ["7", "7"])
  }

  @Test func anAnswerThatIsNotAnEventStreamStopsWithAnError() async throws {
    let transport = StubTransport { _ in .json(["not": "events"]) }
    let stream = stubConnection(transport).events(
      RawStubCall(path: "feed"), options: Self.fastReconnects)
    let error = await #expect(throws: ServerConnectionError.self) {
      for try await _ in stream {}
    }
    guard case .unexpectedResponse = error else {
      Issue.record("expected unexpectedResponse, got \(String(describing: error))")
      return
    }
    #expect(transport.requests.count == 1)
  }

  @Test func anErrorStatusStopsWithoutReconnecting() async throws {
    let transport = StubTransport { _ in .json(["message": "Feed closed."], status: 403) }
    let stream = stubConnection(transport).events(
      RawStubCall(path: "feed"), options: Self.fastReconnects)
    await #expect(throws: ServerConnectionError.self) {
      for try await _ in stream {}
    }
    #expect(transport.requests.count == 1)
  }

  @Test func anUnreachableServerIsRetriedUpToTheLimitThenFails() async throws {
    let transport = StubTransport { _ in
      .failure(TransportFailure(kind: .cannotConnectToHost, detail: "refused"))
    }
    var options = Self.fastReconnects
    options.maximumReconnections = 2
    let stream = stubConnection(transport).events(RawStubCall(path: "feed"), options: options)
    let error = await #expect(throws: ServerConnectionError.self) {
      for try await _ in stream {}
    }
    #expect(transportFailure(in: error)?.kind == .cannotConnectToHost)
    #expect(transport.requests.count >= 3)
  }

  @Test func observersSeeEveryReconnect() async throws {
    let answers = StubAnswer.sequence([
      Self.events("data: a\n\n"), Self.events("data: b\n\n"), .status(204),
    ])
    let events = Locked<[ConvoyEvent]>([])
    let connection = observedConnection(StubTransport { _ in answers }, events: events)
    for try await _ in connection.events(RawStubCall(path: "feed"), options: Self.fastReconnects) {}
    let reconnects = events.current.compactMap { event in
      if case .streamReconnecting(let reconnecting) = event.kind { reconnecting } else { nil }
    }
    #expect(reconnects.map(\.attempt) == [1, 2])
    #expect(reconnects.allSatisfy { $0.delay <= 0.05 })
  }
}
