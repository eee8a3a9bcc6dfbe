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

  @Test(arguments: TransportUnderTest.allCases)
  func aDroppedStreamFailsAndTheReconnectContinuesAfterTheLastID(transport: TransportUnderTest)
    async throws
  {
    let connection = SSEServer.shared.connection(key: key, transport: try transport.make())
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(
        Get("drop", key: key, ["count": "3", "drop_after": "2"]))
    }
    let rest = try await connection.execute(
      Get("drop", key: key, ["count": "3", "drop_after": "2"], headers: ["Last-Event-ID": "2"]))
    #expect(String(decoding: rest.data, as: UTF8.self) == "retry: 100\r\n\r\n" + Self.event(3))
    let after = try await connection.execute(
      Get("drop", key: key, ["count": "3"], headers: ["Last-Event-ID": "3"]))
    #expect(after.response.statusCode == 204)
  }

  @Test func stopAnswers204AndNotSSEAnswersJSON() async throws {
    let stop = try await connection.execute(Get("stop", key: key))
    #expect(stop.response.statusCode == 204)
    let json = try await connection.execute(Get("not-sse", key: key))
    #expect(json.response.headers["Content-Type"] == "application/json")
    #expect(try JSONSerialization.jsonObject(with: json.data) is [String: Any])
  }

  @Test func jsonLinesAreOneObjectPerLine() async throws {
    let answer = try await connection.execute(Get("jsonl", key: key, ["count": "3"]))
    #expect(answer.response.headers["Content-Type"] == "application/x-ndjson")
    let lines = String(decoding: answer.data, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
  }

  @Test func theProtectedStreamRefusesARequestWithoutToken() async throws {
    await #expect {
      try await connection.execute(Get("protected", key: key, ["count": "1"]))
    } throws: { error in
      (error as? ServerConnectionError)?.statusCode == 401
    }
  }

  @Test func convoyLogsInAndRenewsAnExpiredTokenAtTheTokenEndpoint() async throws {
    let connection = connection
    let first = try await connection.login(
      username: "user@example.com", password: SSEServer.password)
    let protected = Get(
      "protected", key: key, ["count": "1"], authenticationRequirement: .accessToken)
    _ = try await connection.execute(protected)

    struct Expire: RequestDescribing {
      typealias Response = DataResponse
      var key: String
      var method: HTTPMethod { .post }
      var path: String { "expire" }
      var queryItems: [URLQueryItem] { [URLQueryItem(name: "key", value: key)] }
    }
    _ = try await connection.execute(Expire(key: key))
    let renewed = try await connection.execute(protected)
    #expect(String(decoding: renewed.data, as: UTF8.self).contains("line two of 1"))

    let refreshToken = connection.session?.accessToken.refreshToken
    #expect(refreshToken != nil && refreshToken != first.accessToken.refreshToken)
    let log = try await SSEServer.shared.log(key: key)
    #expect(log.compactMap(\.grantType) == ["password", "refresh_token"])
    #expect(log.filter { $0.path == "/protected" }.count == 3)  // good, expired, replayed
  }
}
