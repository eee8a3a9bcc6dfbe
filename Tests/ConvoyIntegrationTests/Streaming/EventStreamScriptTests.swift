import Convoy
import ConvoyTesting
import Foundation
import Testing

/// ``ServerSentEventStream`` against streams scripted in the test process
/// (``ScriptedEventServer``): reconnection after a drop with `Last-Event-ID`, the stop rules, and
/// token renewal when a protected stream reconnects, on every transport.
@Suite("Event streams against a scripted server", .timeLimit(.minutes(2)))
struct EventStreamScriptTests {
  /// A GET on the scripted server.
  private struct Feed: RequestDescribing {
    typealias Response = DataResponse
    var path: String
    var queryItems: [URLQueryItem]
    var headers: HTTPHeaders = [:]
    var authenticationRequirement: AuthenticationRequirement = .none
    var method: HTTPMethod { .get }

    init(_ path: String, _ query: [String: String] = [:]) {
      self.path = path
      queryItems = query.sorted { $0.key < $1.key }.map {
        URLQueryItem(name: $0.key, value: $0.value)
      }
    }
  }

  /// Reconnects quickly and never forever: the server's `retry: 100` stays under the cap.
  private static let options = EventStreamOptions(
    reconnectionDelay: 0.1, maximumReconnectionDelay: 0.5, maximumReconnections: 10)

  /// Runs `body` with a server of its own, shut down afterwards whatever happens.
  private func withServer(_ body: (ScriptedEventServer) async throws -> Void) async throws {
    let server = try await ScriptedEventServer.started()
    do {
      try await body(server)
    } catch {
      await server.shutdown()
      throw error
    }
    await server.shutdown()
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDroppedConnectionReconnectsAfterTheLastEventID(_ kind: TransportUnderTest) async throws {
    try await withServer { server in
      let events = Locked<[ConvoyEvent]>([])
      let connection = server.connection(
        transport: try kind.make(),
        observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
      var ids: [String?] = []
      for try await event in connection.events(
        Feed("drop", ["count": "6", "drop_after": "2"]), options: Self.options)
      {
        ids.append(event.id)
      }
      #expect(ids == ["1", "2", "3", "4", "5", "6"])
      let sent = server.requests.map { $0.headers["Last-Event-ID"] }
      #expect(sent == [nil, "2", "4", "6"])
      let reconnects = events.withLock { $0.filter { $0.name == .streamReconnecting } }
      #expect(reconnects.count == sent.count - 1)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aDroppedBufferedCallFailsAndTheNextContinuesAfterTheLastID(_ kind: TransportUnderTest)
    async throws
  {
    try await withServer { server in
      let connection = server.connection(transport: try kind.make())
      await #expect(throws: ServerConnectionError.self) {
        try await connection.execute(Feed("drop", ["count": "3", "drop_after": "2"]))
      }
      var rest = Feed("drop", ["count": "3", "drop_after": "2"])
      rest.headers["Last-Event-ID"] = "2"
      let answer = try await connection.execute(rest)
      #expect(
        String(decoding: answer.data, as: UTF8.self)
          == "retry: 100\nid: 3\nevent: tick\ndata: event 3\n\n")
      var after = Feed("drop", ["count": "3"])
      after.headers["Last-Event-ID"] = "3"
      #expect(try await connection.execute(after).response.statusCode == 204)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anAnswerThatIsNotAnEventStreamStops(_ kind: TransportUnderTest) async throws {
    try await withServer { server in
      let connection = server.connection(transport: try kind.make())
      let error = await #expect(throws: ServerConnectionError.self) {
        for try await _ in connection.events(Feed("not-sse"), options: Self.options) {}
      }
      guard case .unexpectedResponse = error else {
        Issue.record("expected unexpectedResponse, got \(String(describing: error))")
        return
      }
      #expect(server.requests.count == 1)
    }
  }

  @Test func a204FromTheStartEndsWithNoEvents() async throws {
    try await withServer { server in
      let connection = server.connection(transport: URLSessionTransport())
      var count = 0
      for try await _ in connection.events(Feed("stop"), options: Self.options) { count += 1 }
      #expect(count == 0)
      #expect(server.requests.count == 1)
    }
  }

  @Test func theProtectedStreamRefusesARequestWithoutAToken() async throws {
    try await withServer { server in
      let connection = server.connection(transport: URLSessionTransport())
      await #expect {
        try await connection.execute(Feed("protected", ["count": "1"]))
      } throws: { error in
        (error as? ServerConnectionError)?.statusCode == 401
      }
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anExpiredTokenIsRenewedWhenTheStreamReconnects(_ kind: TransportUnderTest) async throws {
    try await withServer { server in
      let connection = server.connection(transport: try kind.make())
      let first = try await connection.login(
        with: .password(
          username: "user@example.com", password: ScriptedEventServer.password))
      var feed = Feed("protected", ["count": "4", "drop_after": "2"])
      feed.authenticationRequirement = .accessToken
      var ids: [String?] = []
      for try await event in connection.events(feed, options: Self.options) {
        ids.append(event.id)
        // The token expires while the stream is open; the reconnect after the drop meets a 401.
        if event.id == "2" { server.expireTokens() }
      }
      #expect(ids == ["1", "2", "3", "4"])
      let grants = server.requests.filter { $0.path == "/oauth/token" }.map {
        $0.bodyText.split(separator: "&").first { $0.hasPrefix("grant_type=") }
      }
      #expect(grants == ["grant_type=password", "grant_type=refresh_token"])
      let streams = server.requests.filter { $0.path == "/protected" }
      // The first connection, the reconnect refused with 401, the one after the renewal, and
      // the last, told 204 after event 4.
      #expect(streams.map { $0.headers["Last-Event-ID"] } == [nil, "2", "2", "4"])
      #expect(streams.allSatisfy { $0.headers["Authorization"] != nil })
      let refreshToken = connection.session?.accessToken.refreshToken
      #expect(refreshToken != nil && refreshToken != first.accessToken.refreshToken)
    }
  }
}
