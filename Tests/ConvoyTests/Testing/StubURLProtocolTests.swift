import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct StubURLProtocolTests {
  private func connection(_ routes: StubRoutes) -> ServerConnection {
    stubConnection(URLSessionTransport(configuration: .stubbed(by: routes)))
  }

  @Test func urlSessionAnswersFromTheRoutesThroughTheWholePipeline() async throws {
    let routes = StubRoutes().on(.post, "v2/places/{id}/notes") { request in
      .json(["id": request.pathParameters["id"] ?? "?", "echo": request.bodyText], status: 201)
    }
    let call = StubCall<[String: String]>(
      method: .post, path: "v2/places/4/notes", body: .text("hi"))
    let response = try await connection(routes).execute(call)
    #expect(response.value == ["id": "4", "echo": "hi"])
    #expect(response.response.statusCode == 201)
    let recorded = try #require(routes.requests.first)
    #expect(recorded.url.absoluteString == "https://api.example.com/api/v2/places/4/notes")
    #expect(recorded.header("Content-Type") == "text/plain; charset=utf-8")
  }

  @Test func twoConfigurationsInParallelNeverSeeEachOthersRoutes() async throws {
    let left = StubRoutes().on(.get, "who", answer: .json(["me": "left"]))
    let right = StubRoutes().on(.get, "who", answer: .json(["me": "right"]))
    let onlyLeft = StubRoutes().on(.get, "left-only", answer: .json(["me": "left"]))
    let connections = [connection(left), connection(right)]
    let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for round in 0..<20 {
        let side = round % 2
        group.addTask {
          let value = try await connections[side].execute(StubCall<[String: String]>(path: "who"))
          return (side, value.value["me"] ?? "")
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(answers.filter { $0.0 == 0 }.allSatisfy { $0.1 == "left" })
    #expect(answers.filter { $0.0 == 1 }.allSatisfy { $0.1 == "right" })
    #expect(left.requests.count == 10 && right.requests.count == 10)

    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connections[1].execute(StubCall<[String: String]>(path: "left-only"))
    }
    #expect(transportFailure(in: error)?.detail.hasPrefix("no stub for GET") == true)
    #expect(onlyLeft.requests.isEmpty)
  }

  @Test func aStubbedErrorStatusFailsValidation() async throws {
    let routes = StubRoutes().on(.get, "thing", answer: .json(["reason": "Gone."], status: 410))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection(routes).execute(StubCall<[String: String]>(path: "thing"))
    }
    #expect(error == .descriptiveServerError("Gone.", try #require(error?.context)))
    #expect(error?.statusCode == 410)
  }

  @Test func failuresKeepTheirKindAndTheNoStubListingItsText() async throws {
    let routes = StubRoutes()
      .on(
        .get, "offline",
        answer: .failure(TransportFailure(kind: .notConnectedToInternet, detail: ""))
      )
      .on(
        .get, "refused", answer: .failure(TransportFailure(kind: .cannotConnectToHost, detail: "")))
    let connection = connection(routes)
    for (path, kind) in [
      ("offline", TransportFailure.Kind.notConnectedToInternet), ("refused", .cannotConnectToHost),
    ] {
      let error = await #expect(throws: ServerConnectionError.self) {
        _ = try await connection.execute(RawStubCall(path: path))
      }
      #expect(transportFailure(in: error)?.kind == kind)
    }
    let unmatched = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(RawStubCall(path: "elsewhere"))
    }
    let failure = try #require(transportFailure(in: unmatched))
    #expect(failure.kind == .other)
    #expect(failure.detail.contains("registered: GET offline; GET refused"))
  }

  @Test func aDelayedAnswerArrivesWhenTheTestClockPassesItsDelay() async throws {
    let clock = TestClock()
    let routes = StubRoutes().on(.get, "slow", answer: .delayed(5, .json(["late": true])))
    let connection = stubConnection(
      URLSessionTransport(configuration: .stubbed(by: routes, clock: clock)))
    let call = Task { try await connection.execute(StubCall<[String: Bool]>(path: "slow")) }
    // The answer waits on the test clock, not on real time: its five seconds are a wake-up there.
    #expect(await clock.waitForWakeUp(in: 5))
    clock.advance(by: 5)
    #expect(try await call.value.value == ["late": true])
    #expect(clock.pendingWakeUps.isEmpty)
  }

  @Test func cancellingADelayedAnswerStopsTheProtocolCleanly() async throws {
    let arrived = Locked(0)
    let routes = StubRoutes().on(.get, "slow") { _ in
      arrived.withLock { $0 += 1 }
      return .delayed(60, .json(["late": true]))
    }
    let connection = connection(routes)
    let tasks = (0..<8).map { _ in Task { try await connection.execute(RawStubCall(path: "slow")) }
    }
    // Calls are waiting for their answers (as many as URLSession runs at once); the answers are
    // a minute away, so a call that ends `cancelled` below was ended by its cancellation.
    #expect(await eventually { arrived.current >= 1 })
    for task in tasks { task.cancel() }
    for task in tasks {
      await #expect(throws: ServerConnectionError.cancelled) { _ = try await task.value }
    }
  }
}

extension StubURLProtocolTests {
  /// FoundationNetworking reads its session's task registry in every client call, and may read
  /// it only on the thread that starts the protocol (the session's work queue); an answer
  /// delivered from another thread raced with the session's other tasks.
  @Test func anUndelayedAnswerReachesTheClientBeforeStartLoadingReturns() throws {
    let routes = StubRoutes().on(.get, "who", answer: .json(["me": "left"]))
    let protocolClass = try #require(
      URLSessionConfiguration.stubbed(by: routes).protocolClasses?.first as? URLProtocol.Type)
    let client = RecordingProtocolClient()
    let request = URLRequest(url: URL(string: "https://api.example.com/who")!)
    let loader = protocolClass.init(request: request, cachedResponse: nil, client: client)
    loader.startLoading()
    #expect(client.events == ["response 200", "data 13 bytes", "finished"])
  }
}

/// A protocol client that writes down what it is told, in order.
private final class RecordingProtocolClient: NSObject, URLProtocolClient, Sendable {
  private let recorded = Locked<[String]>([])

  var events: [String] { recorded.current }

  private func record(_ event: String) { recorded.withLock { $0.append(event) } }

  func urlProtocol(
    _ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse
  ) { record("redirect") }
  func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse)
  { record("cached") }
  func urlProtocol(
    _ protocol: URLProtocol, didReceive response: URLResponse,
    cacheStoragePolicy policy: URLCache.StoragePolicy
  ) { record("response \((response as? HTTPURLResponse)?.statusCode ?? 0)") }
  func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
    record("data \(data.count) bytes")
  }
  func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { record("finished") }
  func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
    record("failed")
  }
  func urlProtocol(
    _ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge
  ) { record("challenge") }
  func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
    record("challenge cancelled")
  }
}
