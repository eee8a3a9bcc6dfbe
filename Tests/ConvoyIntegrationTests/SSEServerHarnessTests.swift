import Convoy
import Foundation
import Testing

/// A GET whose answer is kept as bytes; buffered reads are enough while streams end.
private struct Get: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String
  var queryItems: [URLQueryItem] = []
  var headers: HTTPHeaders = HTTPHeaders()
  var authenticationRequirement: AuthenticationRequirement = .none

  init(
    _ path: String, key: String, _ query: [String: String] = [:], headers: HTTPHeaders = [:],
    authenticationRequirement: AuthenticationRequirement = .none
  ) {
    self.path = path
    queryItems =
      [URLQueryItem(name: "key", value: key)]
      + query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    self.headers = headers
    self.authenticationRequirement = authenticationRequirement
  }
}

/// The harness's SSE server answers as the streaming tests will expect, seen through today's
/// buffered calls.
@Suite(.needs(.sseStarlette)) struct SSEServerHarnessTests {
  private let key = SSEServer.newKey()
  private var connection: ServerConnection { SSEServer.shared.connection(key: key) }

  private static func event(_ i: Int) -> String {
    ": comment before event \(i)\r\nid: \(i)\r\nevent: tick\r\n"
      + "data: line one of \(i)\r\ndata: line two of \(i)\r\n\r\n"
  }

  @Test(arguments: TransportUnderTest.allCases)
  func eventsStreamRetryIdsCommentsAndTwoLineData(transport: TransportUnderTest) async throws {
    let connection = SSEServer.shared.connection(key: key, transport: try transport.make())
    let answer = try await connection.execute(Get("events", key: key, ["count": "2"]))
    #expect(answer.response.statusCode == 200)
    #expect(answer.response.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
    let expected = "retry: 100\r\n\r\n" + Self.event(1) + Self.event(2)
    #expect(String(decoding: answer.data, as: UTF8.self) == expected)
  }

  @Test func aLastEventIDThatReachedTheEndGets204AndIsLogged() async throws {
    _ = try await connection.execute(Get("events", key: key, ["count": "2"]))
    let again = try await connection.execute(
      Get("events", key: key, ["count": "2"], headers: ["Last-Event-ID": "2"]))
    #expect(again.response.statusCode == 204)
    let log = try await SSEServer.shared.log(key: key)
    #expect(log.map(\.path) == ["/events", "/events"])
    #expect(log.map(\.lastEventID) == [nil, "2"])
    #expect(log.allSatisfy { !$0.authorizationPresent })
  }

  @Test func jsonLinesAreOneObjectPerLine() async throws {
    let answer = try await connection.execute(Get("jsonl", key: key, ["count": "3"]))
    #expect(answer.response.headers["Content-Type"] == "application/x-ndjson")
    let lines = String(decoding: answer.data, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
  }
}
