import Convoy
import ConvoyTesting
import Dispatch
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct Place: Codable, Sendable, Equatable {
  var id: Int
  var name: String
  var openedAt: Date?
}

private struct PlacesRequest: RequestDescribing {
  typealias Response = JSONResponse<[Place]>
  var method: HTTPMethod { .get }
  var path: String { "v2/places" }
  var queryItems: [URLQueryItem] { [URLQueryItem(name: "near", value: "52.5,13.4")] }
  var headers: HTTPHeaders { ["Accept": "application/json"] }
}

private struct CreatePlace: RequestDescribing {
  typealias Response = JSONResponse<Place>
  var place: Place
  var method: HTTPMethod { .post }
  var path: String { "v2/places" }
  var body: RequestBody? { .json(place) }
}

private struct DeletePlace: RequestDescribing {
  typealias Response = EmptyResponse
  var method: HTTPMethod { .delete }
  var path: String { "v2/places/1" }
}

private struct SnakePlace: RequestDescribing {
  typealias Response = JSONResponse<Place>
  var method: HTTPMethod { .get }
  var path: String { "v2/places/1" }
  var decoder: JSONDecoder? {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

private struct SlowRequest: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "slow" }
  var timeout: TimeInterval? { 0.2 }
}

@Suite(.timeLimit(.minutes(3))) struct ServerConnectionTests {
  private func connection(
    decoder: JSONDecoder = JSONDecoder(), clock: any ConvoyClock = .system,
    _ respond: @escaping @Sendable (TransportRequest) -> StubTransport.Answer
  ) -> (ServerConnection, StubTransport) {
    let transport = StubTransport(respond: respond)
    transport.clock = clock
    let configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/api/")!,
      defaultHeaders: ["User-Agent": "ConvoyTests", "Accept": "*/*"], clock: clock)
    return (
      ServerConnection(configuration: configuration, transport: transport, decoder: decoder),
      transport
    )
  }

  @Test func decodesATypedValueFromTheAnswer() async throws {
    let (connection, transport) = connection { _ in
      .json([["id": 1, "name": "Harbour"], ["id": 2, "name": "Bridge"]])
    }
    let response = try await connection.execute(PlacesRequest())
    #expect(response.value.map(\.name) == ["Harbour", "Bridge"])
    #expect(response.response.statusCode == 200)
    let sent = try #require(transport.requests.first?.urlRequest)
    #expect(sent.url?.absoluteString == "https://api.example.com/api/v2/places?near=52.5%2C13.4")
    #expect(sent.httpMethod == "GET")
    #expect(sent.value(forHTTPHeaderField: "accept") == "application/json")
    #expect(sent.value(forHTTPHeaderField: "User-Agent") == "ConvoyTests")
  }

  @Test func sendsAJSONBodyWithItsContentType() async throws {
    let (connection, transport) = connection { request in
      .response(status: 201, headers: [:], body: request.urlRequest.httpBody ?? Data())
    }
    let place = Place(id: 7, name: "Pier", openedAt: nil)
    let response = try await connection.execute(CreatePlace(place: place))
    #expect(response.value == place)
    #expect(
      transport.requests.first?.urlRequest.value(forHTTPHeaderField: "Content-Type")
        == "application/json")
  }

  @Test func connectionDecoderAppliesAndARequestCanOverrideIt() async throws {
    let body = #"{"id":1,"name":"Dock","opened_at":"2024-05-01T10:00:00Z"}"#
    let (connection, _) = connection { _ in
      .response(status: 200, headers: [:], body: Data(body.utf8))
    }
    let value = try await connection.execute(SnakePlace()).value
    #expect(value.openedAt == Date(timeIntervalSince1970: 1_714_557_600))

    let plain = #"{"id":2,"name":"Quay","openedAt":0}"#
    let secondsDecoder = JSONDecoder()
    secondsDecoder.dateDecodingStrategy = .secondsSince1970
    let (other, _) = self.connection(decoder: secondsDecoder) { _ in
      .response(status: 200, headers: [:], body: Data(plain.utf8))
    }
    struct GetOne: RequestDescribing {
      typealias Response = JSONResponse<Place>
      var method: HTTPMethod { .get }
      var path: String { "p" }
    }
    #expect(try await other.execute(GetOne()).value.openedAt == Date(timeIntervalSince1970: 0))
  }

  @Test func emptyAnswersNeedNoBody() async throws {
    let (connection, _) = connection { _ in .status(204) }
    #expect(try await connection.execute(DeletePlace()).response.statusCode == 204)
  }

  @Test func unacceptedStatusesBecomeHTTPErrorsWithContext() async throws {
    let (connection, _) = connection { _ in .json(["unrelated": true], status: 404) }
    do {
      _ = try await connection.execute(PlacesRequest())
      Issue.record("expected an error")
    } catch let error as ServerConnectionError {
      guard case .httpError(404, let context) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(context.method == .get)
      #expect(context.url?.contains("/api/v2/places") == true)
      #expect(context.bodyExcerpt?.contains("unrelated") == true)
    }
  }

  @Test func messagesMeantForPeopleBecomeDescriptiveErrors() async throws {
    let (connection, _) = connection { _ in
      .json(["error": true, "code": 999, "reason": "Invalid Token."], status: 401)
    }
    await #expect {
      try await connection.execute(PlacesRequest())
    } throws: { error in
      guard
        case .descriptiveServerError("Invalid Token.", let context) = error
          as? ServerConnectionError
      else { return false }
      return context.statusCode == 401
    }
  }

  @Test func decodingFailuresNameTheFieldAndType() async throws {
    let (connection, _) = connection { _ in .json([["id": 1]]) }
    await #expect {
      try await connection.execute(PlacesRequest())
    } throws: { error in
      guard case .decodingFailed(let failure, _) = error as? ServerConnectionError else {
        return false
      }
      return failure.reason == .keyNotFound && failure.codingPath == "[0].name"
        && failure.responseType.contains("Place")
    }
  }

  @Test func transportFailuresKeepTheirKind() async throws {
    let (connection, _) = connection { _ in
      .failure(TransportFailure(kind: .notConnectedToInternet, detail: "offline"))
    }
    await #expect {
      try await connection.execute(PlacesRequest())
    } throws: { error in
      guard case .transportFailed(let failure, let context) = error as? ServerConnectionError
      else { return false }
      return failure.kind == .notConnectedToInternet && context.url != nil
    }
  }

  @Test func bodiesThatCannotBeEncodedFailBeforeAnythingIsSent() async throws {
    struct Bad: RequestDescribing {
      typealias Response = EmptyResponse
      var method: HTTPMethod { .post }
      var path: String { "x" }
      var body: RequestBody? { .json(["value": Double.nan]) }
    }
    let (connection, transport) = connection { _ in .status(200) }
    await #expect {
      try await connection.execute(Bad())
    } throws: { error in
      if case .encodingFailed = error as? ServerConnectionError { return true }
      return false
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func malformedURLsFailWithATypedError() async throws {
    let transport = StubTransport { _ in .status(200) }
    let broken = ServerConnection(
      configuration: ServerConfiguration(
        environment: "broken", baseURL: URL(string: "mailto:x@y.z")!),
      transport: transport)
    await #expect {
      try await broken.execute(DeletePlace())
    } throws: { error in
      if case .invalidURL = error as? ServerConnectionError { return true }
      return false
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func theWholeCallHasADeadlineEvenIfTheTransportNeverAnswers() async throws {
    let clock = TestClock()
    let (connection, transport) = connection(clock: clock) { _ in .delayed(30, .status(200)) }
    let call = Task { try await connection.execute(SlowRequest()) }
    // The transfer is under way: its answer due in 30 s, the call's deadline in 0.2 s.
    try #require(await eventually { clock.pendingWakeUps.count == 2 })
    #expect(transport.requests.count == 1)
    // The deadline is computed from dates, which round a fifth of a second a little.
    #expect(clock.pendingWakeUps.map { ($0 * 1_000).rounded() / 1_000 } == [0.2, 30])
    clock.advance(by: 1)
    await #expect {
      try await call.value
    } throws: { error in
      if case .timedOut = error as? ServerConnectionError { return true }
      return false
    }
    // The transfer was cancelled with the call: its answer no longer waits for the clock.
    #expect(clock.pendingWakeUps.isEmpty)
  }

  @Test func redirectsAreFollowedByConvoyWithTheirBody() async throws {
    let (connection, transport) = connection { request in
      if request.urlRequest.url?.path == "/api/v2/places" {
        return .response(status: 307, headers: ["Location": "/api/v2/elsewhere"], body: Data())
      }
      return .response(status: 201, headers: [:], body: request.urlRequest.httpBody ?? Data())
    }
    let place = Place(id: 3, name: "Moved", openedAt: nil)
    #expect(try await connection.execute(CreatePlace(place: place)).value == place)
    #expect(transport.requests.map { $0.urlRequest.httpMethod } == ["POST", "POST"])
  }

  @Test func completionHandlersRunOnceOnTheChosenQueue() async throws {
    let (connection, _) = connection { _ in .json([["id": 1, "name": "A"]]) }
    let queue = DispatchQueue(label: "completions")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let (onQueue, result) = await withCheckedContinuation { continuation in
      connection.execute(PlacesRequest(), completionQueue: queue) { result in
        continuation.resume(returning: (DispatchQueue.getSpecific(key: key) == true, result))
      }
    }
    #expect(onQueue)
    #expect(try result.get().value.count == 1)
  }

  @Test func aCompletionHandlerCallReachesTheTransportBeforeExecuteReturns() async throws {
    let (connection, transport) = connection { _ in .json([["id": 1, "name": "A"]]) }
    let outcome = Outcome<Bool>()
    connection.execute(PlacesRequest(), completionQueue: testQueue) {
      outcome.record((try? $0.get()) != nil)
    }
    // Begun on this thread, with a slot free and nothing to wait for: no hand-over to another.
    #expect(transport.requests.count == 1)
    #expect(await outcome.first() == true)
  }

  @Test func anOperationStartedByHandReachesTheTransportBeforeStartReturns() async throws {
    let (connection, transport) = connection { _ in .json([["id": 1, "name": "A"]]) }
    let operation = connection.operation(for: PlacesRequest())
    // As an app's own queue would: the starting thread begins the call.
    operation.start()
    #expect(transport.requests.count == 1)
    #expect(await eventually { operation.isFinished })
    #expect(try operation.result?.get().value.count == 1)
  }

  @Test func aCompletionHandlerCallsTokenShowsItsOneUnitDone() async throws {
    let (connection, _) = connection { _ in .json([["id": 1, "name": "A"]]) }
    let outcome = Outcome<Bool>()
    let token = connection.execute(PlacesRequest(), completionQueue: testQueue) {
      outcome.record((try? $0.get()) != nil)
    }
    #expect(await outcome.first() == true)
    #expect(token.progress.completedUnitCount == 1)
    #expect(token.progress.totalUnitCount == 1)
  }

  @Test func cancellingTheTokenCompletesWithCancellation() async throws {
    let (connection, transport) = connection { _ in .delayed(30, .status(200)) }
    let outcome = Outcome<Result<DeletePlace.Response, any Error>>()
    let token = connection.execute(DeletePlace(), completionQueue: testQueue) {
      outcome.record($0)
    }
    #expect(await eventually { transport.requests.count == 1 })
    token.cancel()
    token.cancel()
    guard case .failure(let error)? = await outcome.first() else {
      Issue.record("expected cancellation")
      return
    }
    #expect(error.isCancellation)
    #expect(ErrorMessageProvider.standard.message(for: error) == nil)
  }

  @Test func cancellingTheTaskCancelsTheTransfer() async throws {
    let (connection, transport) = connection { _ in .delayed(10, .status(200)) }
    let task = Task { try await connection.execute(DeletePlace()) }
    try #require(await eventually { transport.requests.count == 1 })
    task.cancel()
    await #expect {
      try await task.value
    } throws: { error in
      (error as? ServerConnectionError) == .cancelled
    }
  }
}
