import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``ServerSentEventStream`` against a real sse-starlette server: parsing, reconnection with
/// `Last-Event-ID`, the stop rules and token renewal on reconnect, on every transport.
@Suite("Server-sent events against sse-starlette", .timeLimit(.minutes(2)), .needs(.sseStarlette))
struct ServerSentEventIntegrationTests {
  private let key = SSEServer.newKey()

  /// A GET on the SSE server, keyed to this test.
  private struct Feed: RequestDescribing {
    typealias Response = DataResponse
    var path: String
    var queryItems: [URLQueryItem]
    var authenticationRequirement: AuthenticationRequirement = .none
    var method: HTTPMethod { .get }

    init(_ path: String, key: String, _ query: [String: String] = [:]) {
      self.path = path
      queryItems =
        [URLQueryItem(name: "key", value: key)]
        + query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    }
  }

  /// Reconnects quickly and never forever: the server's `retry: 100` stays under the cap.
  private static let options = EventStreamOptions(
    reconnectionDelay: 0.1, maximumReconnectionDelay: 0.5, maximumReconnections: 10)

  @Test(arguments: TransportUnderTest.allCases)
  func readsEventsAndStopsWhenTheServerAnswers204(_ kind: TransportUnderTest) async throws {
    let connection = SSEServer.shared.connection(key: key, transport: try kind.make())
    var events: [ServerSentEvent] = []
    for try await event in connection.events(
      Feed("events", key: key, ["count": "3"]), options: Self.options)
    {
      events.append(event)
    }
    #expect(events.map(\.id) == ["1", "2", "3"])
    #expect(events.allSatisfy { $0.type == "tick" })
    #expect(events.first?.data == "line one of 1\nline two of 1")
    #expect(events.first?.retry == 0.1)
    let log = try await SSEServer.shared.log(key: key)
    #expect(log.map(\.lastEventID) == [nil, "3"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDroppedConnectionReconnectsAfterTheLastEventID(_ kind: TransportUnderTest) async throws {
    let events = Locked<[ConvoyEvent]>([])
    var configuration = ServerConfiguration.local(port: SSEServer.shared.port)
    configuration.authentication = SSEServer.shared.authentication(key: key)
    let connection = ServerConnection(
      configuration: configuration, transport: try kind.make(),
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
    var ids: [String?] = []
    for try await event in connection.events(
      Feed("drop", key: key, ["count": "6", "drop_after": "2"]), options: Self.options)
    {
      ids.append(event.id)
    }
    #expect(ids == ["1", "2", "3", "4", "5", "6"])
    let sent = try await SSEServer.shared.log(key: key).map(\.lastEventID)
    #expect(sent.first == .some(nil))
    #expect(sent.last == "6")
    #expect(sent.contains("2"), "the reconnect after the drop resumes after event 2")
    let reconnects = events.withLock { $0.filter { $0.name == .streamReconnecting } }
    #expect(reconnects.count == sent.count - 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anAnswerThatIsNotAnEventStreamStops(_ kind: TransportUnderTest) async throws {
    let connection = SSEServer.shared.connection(key: key, transport: try kind.make())
    let error = await #expect(throws: ServerConnectionError.self) {
      for try await _ in connection.events(Feed("not-sse", key: key), options: Self.options) {}
    }
    guard case .unexpectedResponse = error else {
      Issue.record("expected unexpectedResponse, got \(String(describing: error))")
      return
    }
    let log = try await SSEServer.shared.log(key: key)
    #expect(log.count == 1)
  }

  @Test func a204FromTheStartEndsWithNoEvents() async throws {
    var count = 0
    for try await _ in SSEServer.shared.connection(key: key).events(
      Feed("stop", key: key), options: Self.options)
    {
      count += 1
    }
    #expect(count == 0)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anExpiredTokenIsRenewedWhenTheStreamReconnects(_ kind: TransportUnderTest) async throws {
    let connection = SSEServer.shared.connection(key: key, transport: try kind.make())
    _ = try await connection.login(username: "user@example.com", password: SSEServer.password)
    var feed = Feed("protected", key: key, ["count": "4", "drop_after": "2"])
    feed.authenticationRequirement = .accessToken
    var ids: [String?] = []
    for try await event in connection.events(feed, options: Self.options) {
      ids.append(event.id)
      if event.id == "2" {
        // The token expires while the stream is open; the reconnect after the drop meets a 401.
        try await expireTokens()
      }
    }
    #expect(ids == ["1", "2", "3", "4"])
    let log = try await SSEServer.shared.log(key: key)
    #expect(log.compactMap(\.grantType) == ["password", "refresh_token"])
    let streams = log.filter { $0.path == "/protected" }
    #expect(streams.count >= 2 && streams.allSatisfy { $0.authorizationPresent })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func jsonLinesDecodeOneValuePerLine(_ kind: TransportUnderTest) async throws {
    struct Item: Decodable { var index: Int }
    let connection = SSEServer.shared.connection(key: key, transport: try kind.make())
    let stream = try await connection.stream(Feed("jsonl", key: key, ["count": "5"]))
    var indexes: [Int] = []
    for try await item in stream.body.jsonLines(of: Item.self) { indexes.append(item.index) }
    #expect(indexes == [1, 2, 3, 4, 5])
  }

  private func expireTokens() async throws {
    var request = URLRequest(url: SSEServer.shared.url("/expire?key=\(key)"))
    request.httpMethod = "POST"
    _ = try await URLSession.shared.data(for: request)
  }
}
