import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct CachingTransportTests {
  private let clock = TestClock.forCaching()

  @Test func freshAnswerWithinMaxAgeNeverTouchesTheNetwork() async throws {
    let stub = StubTransport { _ in
      .response(status: 200, headers: ["Cache-Control": "max-age=60"], body: Data("v1".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 59)
    let second = try await connection.execute(CachedGet())
    #expect(second.text == "v1")
    #expect(second.response.headers["Age"] == "59")
    #expect(stub.requests.count == 1)
    clock.advance(by: 2)
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 2)
  }

  @Test func staleAnswerIsRevalidatedAndA304DeliversTheStoredBodyAsA200() async throws {
    let stub = StubTransport { request in
      if request.urlRequest.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"" {
        return .status(304, headers: ["ETag": "\"v1\""])
      }
      return .response(status: 200, headers: ["ETag": "\"v1\""], body: Data("body".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    let second = try await connection.execute(CachedGet())
    #expect(second.status == 200)
    #expect(second.text == "body")
    #expect(stub.requests.count == 2)
    #expect(stub.requests[0].urlRequest.value(forHTTPHeaderField: "If-None-Match") == nil)
  }

  @Test func lastModifiedIsRevalidatedWithIfModifiedSince() async throws {
    let modified = "Tue, 14 Nov 2023 22:13:20 GMT"
    let stub = StubTransport { request in
      request.urlRequest.value(forHTTPHeaderField: "If-Modified-Since") == modified
        ? .status(304)
        : .response(status: 200, headers: ["Last-Modified": modified], body: Data("x".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    #expect(try await connection.execute(CachedGet()).text == "x")
    #expect(stub.requests.count == 2)
  }

  @Test func a304sHeadersReplaceTheStoredOnesAndCanMakeTheAnswerFresh() async throws {
    let stub = StubTransport { request in
      request.urlRequest.value(forHTTPHeaderField: "If-None-Match") != nil
        ? .status(304, headers: ["ETag": "\"a\"", "Cache-Control": "max-age=30", "X-Rev": "2"])
        : .response(
          status: 200, headers: ["ETag": "\"a\"", "Cache-Control": "no-cache", "X-Rev": "1"],
          body: Data("a".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    let revalidated = try await connection.execute(CachedGet())
    #expect(revalidated.response.headers["X-Rev"] == "2")
    #expect(revalidated.text == "a")
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 2)
  }

  @Test func noStoreIsNeverStored() async throws {
    let stub = StubTransport { _ in
      .response(
        status: 200, headers: ["Cache-Control": "no-store, max-age=60", "ETag": "\"x\""],
        body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 2)
    #expect(stub.requests[1].urlRequest.value(forHTTPHeaderField: "If-None-Match") == nil)
    #expect(connection.cache?.currentMemoryUsage == 0)
  }

  @Test func noCacheRevalidatesEvenWhenFresh() async throws {
    let stub = StubTransport { request in
      request.urlRequest.value(forHTTPHeaderField: "If-None-Match") != nil
        ? .status(304)
        : .response(
          status: 200, headers: ["Cache-Control": "no-cache, max-age=600", "ETag": "\"n\""],
          body: Data("n".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    #expect(try await connection.execute(CachedGet()).text == "n")
    #expect(stub.requests.count == 2)
  }

  @Test func expiresMinusDateGivesTheLifetime() async throws {
    let date = clock.httpDate()
    let expires = clock.httpDate(in: 100)
    let stub = StubTransport { _ in
      .response(status: 200, headers: ["Date": date, "Expires": expires], body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 99)
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 1)
    clock.advance(by: 2)
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 2)
  }

  @Test func anAgeFromUpstreamShortensTheLifetime() async throws {
    let stub = StubTransport { _ in
      .response(status: 200, headers: ["Cache-Control": "max-age=60", "Age": "50"], body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 11)
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 2)
  }

  @Test func aDifferentVariedHeaderIsAMiss() async throws {
    let stub = StubTransport { _ in
      .response(
        status: 200, headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"],
        body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet(headers: ["Accept-Language": "de"]))
    _ = try await connection.execute(CachedGet(headers: ["Accept-Language": "de"]))
    #expect(stub.requests.count == 1)
    _ = try await connection.execute(CachedGet(headers: ["Accept-Language": "fr"]))
    #expect(stub.requests.count == 2)
  }

  @Test func aSuccessfulPostInvalidatesTheURL() async throws {
    let stub = StubTransport { request in
      request.urlRequest.httpMethod == "POST"
        ? .status(201)
        : .response(status: 200, headers: ["Cache-Control": "max-age=60"], body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    _ = try await connection.execute(CachedPost())
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.map { $0.urlRequest.httpMethod } == ["GET", "POST", "GET"])
  }

  @Test func reloadIgnoringCacheGoesToTheNetworkUnconditionallyAndStores() async throws {
    let stub = StubTransport { _ in
      .response(
        status: 200, headers: ["Cache-Control": "max-age=60", "ETag": "\"e\""], body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    _ = try await connection.execute(CachedGet(cachePolicy: .reloadIgnoringCache))
    #expect(stub.requests.count == 2)
    #expect(stub.requests[1].urlRequest.value(forHTTPHeaderField: "If-None-Match") == nil)
    _ = try await connection.execute(CachedGet())
    #expect(stub.requests.count == 2)
  }

  @Test func reloadRevalidatingCacheAsksEvenWhenFresh() async throws {
    let stub = StubTransport { request in
      request.urlRequest.value(forHTTPHeaderField: "If-None-Match") != nil
        ? .status(304)
        : .response(
          status: 200, headers: ["Cache-Control": "max-age=60", "ETag": "\"e\""],
          body: Data("e".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    let answer = try await connection.execute(CachedGet(cachePolicy: .reloadRevalidatingCache))
    #expect(answer.text == "e")
    #expect(stub.requests[1].urlRequest.value(forHTTPHeaderField: "If-None-Match") == "\"e\"")
  }

  @Test func returnCacheElseLoadServesStaleAnswersButNotMustRevalidateOnes() async throws {
    let mustRevalidate = Locked(false)
    let stub = StubTransport { _ in
      .response(
        status: 200,
        headers: [
          "Cache-Control": mustRevalidate.current ? "max-age=1, must-revalidate" : "max-age=1"
        ],
        body: Data())
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 3_600)
    _ = try await connection.execute(CachedGet(cachePolicy: .returnCacheElseLoad))
    #expect(stub.requests.count == 1)
    mustRevalidate.withLock { $0 = true }
    _ = try await connection.execute(CachedGet(cachePolicy: .reloadIgnoringCache))
    clock.advance(by: 3_600)
    _ = try await connection.execute(CachedGet(cachePolicy: .returnCacheElseLoad))
    #expect(stub.requests.count == 3)
  }

  /// The origin answers `v1` once, then fails the way `failure` says.
  private func failingOrigin(
    _ failure: StubAnswer, cacheControl: String
  ) -> (ServerConnection, StubTransport) {
    let calls = Locked(0)
    let stub = StubTransport { _ in
      calls.next() == 0
        ? .response(status: 200, headers: ["Cache-Control": cacheControl], body: Data("v1".utf8))
        : failure
    }
    var configuration = ServerConfiguration.local(port: 8080)
    configuration.retryPolicy = .never
    let connection = ServerConnection(
      configuration: configuration, transport: stub, cache: HTTPCache(clock: clock))
    return (connection, stub)
  }

  @Test(arguments: [
    StubAnswer.status(503), .status(500),
    .failure(TransportFailure(kind: .cannotConnectToHost, detail: "refused")),
  ])
  func staleIfErrorServesTheStoredAnswerWhenTheOriginFails(failure: StubAnswer) async throws {
    let (connection, stub) = failingOrigin(failure, cacheControl: "max-age=10, stale-if-error=60")
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 40)  // 30 s stale: within the 60 s allowance
    let stale = try await connection.execute(CachedGet())
    #expect(stale.text == "v1")
    #expect(stale.response.headers["Age"] == "40")
    #expect(stub.requests.count == 2)
    clock.advance(by: 40)  // 70 s stale: past it
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(CachedGet())
    }
  }

  @Test func staleIfErrorNeverHidesAnAnswerThatIsNotAFailure() async throws {
    let (connection, _) = failingOrigin(.status(404), cacheControl: "max-age=10, stale-if-error=60")
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 20)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(CachedGet())
    }
    #expect(error?.statusCode == 404)
  }

  @Test(arguments: [
    "max-age=10, stale-if-error=60, must-revalidate", "no-cache, stale-if-error=60",
  ])
  func staleIfErrorYieldsToDirectivesThatForbidStaleAnswers(cacheControl: String) async throws {
    let (connection, _) = failingOrigin(.status(503), cacheControl: cacheControl)
    _ = try await connection.execute(CachedGet())
    clock.advance(by: 20)
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(CachedGet())
    }
  }

  @Test func returnCacheDontLoadFailsWithoutAStoredAnswerAndNeverSends() async throws {
    let stub = StubTransport { _ in .status(200) }
    let connection = ServerConnection.caching(stub, clock: clock)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(CachedGet(cachePolicy: .returnCacheDontLoad))
    }
    #expect(stub.requests.isEmpty)
    // Said as what it is, not as an unreachable server.
    guard case .transportFailed(let failure, _)? = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .notCached)
    let message = try #require(error.flatMap { ErrorMessageProvider.standard.message(for: $0) })
    #expect(message.title == "Not available offline")
  }

  @Test func a304ForAnotherRepresentationIsRetriedUnconditionally() async throws {
    let stub = StubTransport { request in
      request.urlRequest.value(forHTTPHeaderField: "If-None-Match") != nil
        ? .status(304, headers: ["ETag": "\"other\""])
        : .response(status: 200, headers: ["ETag": "\"mine\""], body: Data("fresh".utf8))
    }
    let connection = ServerConnection.caching(stub, clock: clock)
    _ = try await connection.execute(CachedGet())
    let answer = try await connection.execute(CachedGet())
    #expect(answer.text == "fresh")
    #expect(stub.requests.count == 3)
  }

  @Test func aCallersOwnConditionalRequestGetsTheRaw304() async throws {
    let stub = StubTransport { _ in .status(304) }
    let transport = CachingTransport(wrapping: stub, cache: HTTPCache())
    var urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:1/items")!)
    urlRequest.setValue("\"mine\"", forHTTPHeaderField: "If-None-Match")
    let status = try? await transport.send(TransportRequest(urlRequest: urlRequest)).head
      .statusCode
    #expect(status == 304)
  }
}
