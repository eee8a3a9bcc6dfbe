import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A stream's head goes through the same decisions as a buffered call before any byte reaches
/// the reader.
@Suite struct StreamPipelineTests {
  @Test func a401RenewsTheTokenAndReplaysBeforeTheStreamOpens() async throws {
    let server = TokenServer()
    let connection = try server.connection(token: "token-0")
    let stream = try await connection.stream(Me())
    #expect(stream.head.statusCode == 200)
    #expect(try await collect(stream.body) == Data(#"{"me":"alice"}"#.utf8))
    #expect(server.refreshCalls == 1)
    let signed = server.transport.requests.compactMap {
      $0.urlRequest.value(forHTTPHeaderField: "Authorization")
    }
    #expect(signed == ["Bearer token-0", "Bearer token-2"])
  }

  @Test func aTransientStatusIsRetriedUnderTheRetryPolicy() async throws {
    let sequence = StubAnswer.sequence([.status(503), .json(["ok": true])])
    let answers = StubTransport { _ in sequence }
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/")!)
    configuration.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: 0.01)
    let connection = ServerConnection(configuration: configuration, transport: answers)
    let stream = try await connection.stream(RawStubCall(path: "feed"))
    #expect(stream.head.statusCode == 200)
    #expect(answers.requests.count == 2)
  }

  @Test func anErrorStatusCarriesTheServersMessage() async throws {
    let transport = StubTransport { _ in
      .json(["message": "That feed is closed for maintenance."], status: 400)
    }
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await stubConnection(transport).stream(RawStubCall(path: "feed"))
    }
    guard case .descriptiveServerError(let message, let context) = error else {
      Issue.record("expected the server's message, got \(String(describing: error))")
      return
    }
    #expect(message == "That feed is closed for maintenance.")
    #expect(context.statusCode == 400)
  }

  @Test func observersSeeTheStreamFromRequestToEnd() async throws {
    let events = Locked<[ConvoyEvent]>([])
    let connection = observedConnection(
      StubTransport { _ in .json(["ok": true]) }, events: events)
    let stream = try await connection.stream(RawStubCall(path: "feed"))
    _ = try await collect(stream.body)
    try #require(
      await eventually { events.withLock { $0.contains { $0.name == .requestFinished } } })
    let names = events.withLock { $0.map(\.name) }
    #expect(names.first == .requestCreated)
    #expect(names.contains(.responseReceived))
    #expect(names.last == .requestFinished)
  }
}

/// The whole body of a stream.
func collect(_ body: ResponseBody) async throws -> Data {
  var data = Data()
  for try await chunk in body { data.append(chunk) }
  return data
}
