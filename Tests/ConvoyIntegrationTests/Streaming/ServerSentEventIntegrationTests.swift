import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``ServerSentEventStream`` against a real sse-starlette server: its events' format (CRLF
/// lines, comments, two-line data, `retry:`), `Last-Event-ID` on the reconnect after the end, and
/// JSON Lines, on every transport. Drops, the stop rules and token renewal on reconnect are
/// scripted in `EventStreamScriptTests`.
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
  func jsonLinesDecodeOneValuePerLine(_ kind: TransportUnderTest) async throws {
    struct Item: Decodable { var index: Int }
    let connection = SSEServer.shared.connection(key: key, transport: try kind.make())
    let stream = try await connection.stream(Feed("jsonl", key: key, ["count": "5"]))
    var indexes: [Int] = []
    for try await item in stream.body.jsonLines(of: Item.self) { indexes.append(item.index) }
    #expect(indexes == [1, 2, 3, 4, 5])
  }
}
