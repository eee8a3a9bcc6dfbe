import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct Pier: Codable, Sendable, Equatable {
  var id: Int
  var name: String
}

@Suite struct StubAnswerTests {
  private func connection(_ answer: StubAnswer) -> ServerConnection {
    stubConnection(StubTransport(routes: StubRoutes().on(.get, "thing", answer: answer)))
  }

  @Test func jsonAndEncodableAnswersDecode() async throws {
    let json = try await connection(.json(["id": 1, "name": "Harbour"]))
      .execute(StubCall<Pier>(path: "thing")).value
    #expect(json == Pier(id: 1, name: "Harbour"))
    let encoded = try await connection(.encoded(Pier(id: 2, name: "Quay"), status: 201))
      .execute(StubCall<Pier>(path: "thing"))
    #expect(encoded.value == Pier(id: 2, name: "Quay"))
    #expect(encoded.response.statusCode == 201)
    #expect(encoded.response.headers["content-type"] == "application/json")
  }

  @Test func statusAndHeadersArriveAsGiven() async throws {
    let response = try await connection(.status(204, headers: ["ETag": "\"v1\""]))
      .execute(RawStubCall(path: "thing"))
    #expect(response.response.statusCode == 204)
    #expect(response.response.headers["etag"] == "\"v1\"")
    #expect(response.data.isEmpty)
  }

  @Test func aFileFixtureIsReadWhenTheStubAnswers() async throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-fixture-\(UUID().uuidString).json")
    let connection = connection(.file(url))
    let missing = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(StubCall<Pier>(path: "thing"))
    }
    #expect(transportFailure(in: missing)?.kind == .fileUnreadable)

    try Data(#"{"id":3,"name":"Dock"}"#.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let response = try await connection.execute(StubCall<Pier>(path: "thing"))
    #expect(response.value == Pier(id: 3, name: "Dock"))
    #expect(response.response.headers["Content-Type"] == "application/json")
  }

  @Test func aTransportFailureSurfacesAsOne() async throws {
    let offline = TransportFailure(kind: .notConnectedToInternet, detail: "stubbed")
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection(.failure(offline)).execute(StubCall<Pier>(path: "thing"))
    }
    #expect(transportFailure(in: error) == offline)
  }

  @Test func aClosureSeesPathParametersQueryAndBody() async throws {
    let routes = StubRoutes().on(.post, "v2/places/{id}/rename") { request in
      .json([
        "id": request.pathParameters["id"] ?? "?", "lang": request.queryValue("lang") ?? "?",
        "name": (request.jsonBody as? [String: String])?["name"] ?? "?",
      ])
    }
    let call = StubCall<[String: String]>(
      method: .post, path: "v2/places/9/rename",
      queryItems: [URLQueryItem(name: "lang", value: "de")],
      body: .json(["name": "Kai"]))
    let value = try await stubConnection(StubTransport(routes: routes)).execute(call).value
    #expect(value == ["id": "9", "lang": "de", "name": "Kai"])
  }

  @Test func aSequenceAnswersInTurnThenRepeatsItsLastAnswer() async throws {
    // A 404, not a 503: the standard retry policy would replay a 503 and consume the sequence.
    let connection = connection(.sequence([.status(404), .json(["n": 1]), .json(["n": 2])]))
    let call = StubCall<[String: Int]>(path: "thing")
    let first = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(call)
    }
    #expect(first?.statusCode == 404)
    #expect(try await connection.execute(call).value == ["n": 1])
    #expect(try await connection.execute(call).value == ["n": 2])
    #expect(try await connection.execute(call).value == ["n": 2])
  }

  @Test func aStubbedErrorStatusStillFailsValidationAfterTheAdaptersRan() async throws {
    let routes = StubRoutes().on(
      .get, "thing", answer: .json(["reason": "No such pier."], status: 404))
    let tagging = AnyRequestAdapter { request, _ in
      var request = request
      request.setValue("42", forHTTPHeaderField: "X-Trace")
      return request
    }
    let connection = stubConnection(StubTransport(routes: routes))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(StubCall<Pier>(path: "thing", adapters: [tagging]))
    }
    guard case .descriptiveServerError(let message, let context)? = error else {
      Issue.record("expected a descriptive server error, got \(String(describing: error))")
      return
    }
    #expect(message == "No such pier.")
    #expect(context.statusCode == 404)
    #expect(routes.requests.first?.header("X-Trace") == "42")
  }

  @Test func aMalformedBodyFailsDecoding() async throws {
    let broken = StubAnswer.response(status: 200, headers: [:], body: Data(#"{"id": 1,"#.utf8))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection(broken).execute(StubCall<Pier>(path: "thing"))
    }
    guard case .decodingFailed? = error else {
      Issue.record("expected a decoding failure, got \(String(describing: error))")
      return
    }
  }

  @Test func cancellingEndsADelayedAnswerAtOnce() async throws {
    let transport = StubTransport(
      routes: StubRoutes().on(
        .get, "thing", answer: .delayed(60, .json(["id": 1, "name": "Late"]))))
    // The clock never moves: the answer can never arrive, only the cancellation can end the call.
    let clock = TestClock()
    transport.clock = clock
    let connection = stubConnection(transport)
    let task = Task { try await connection.execute(StubCall<Pier>(path: "thing")) }
    #expect(await clock.waitForWakeUps(1))
    task.cancel()
    await #expect(throws: ServerConnectionError.cancelled) { _ = try await task.value }
    #expect(clock.pendingWakeUps.isEmpty)
  }
}
