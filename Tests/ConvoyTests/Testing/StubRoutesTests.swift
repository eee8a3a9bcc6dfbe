import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct StubRoutesTests {
  @Test func aRelativePatternMatchesTheEndOfThePathUnderAnyBasePath() {
    let route = StubRoute(.get, "v2/places", answer: .status(200))
    #expect(route.match(stubRequest(.get, "https://a.example/api/v2/places")) == [:])
    #expect(route.match(stubRequest(.get, "https://a.example/v2/places/")) == [:])
    #expect(route.match(stubRequest(.get, "https://a.example/v2/places/7")) == nil)
    #expect(route.match(stubRequest(.post, "https://a.example/v2/places")) == nil)
  }

  @Test func anAbsolutePatternMustMatchTheWholePath() {
    let route = StubRoute(.get, "/v2/places", answer: .status(200))
    #expect(route.match(stubRequest(.get, "https://a.example/v2/places")) == [:])
    #expect(route.match(stubRequest(.get, "https://a.example/api/v2/places")) == nil)
  }

  @Test func placeholdersCaptureOneDecodedSegment() {
    let route = StubRoute(.get, "places/{id}/photos/{photo}", answer: .status(200))
    let request = stubRequest(.get, "https://a.example/api/places/7/photos/a%20b")
    #expect(route.match(request) == ["id": "7", "photo": "a b"])
    #expect(route.match(stubRequest(.get, "https://a.example/places/7/photos")) == nil)
  }

  @Test func queryHeaderAndBodyMatchersNarrowARoute() {
    let url = "https://a.example/v2/places?page=2&city=Berlin"
    let query = StubRoute(.get, "v2/places", matchers: [.query("page", "2")], answer: .status(200))
    #expect(query.match(stubRequest(.get, url)) != nil)
    #expect(query.match(stubRequest(.get, "https://a.example/v2/places?page=3")) == nil)
    #expect(
      StubRoute(.get, "v2/places", matchers: [.query("city")], answer: .status(200))
        .match(stubRequest(.get, url)) != nil)

    let header = StubRoute(.get, "me", matchers: [.header("authorization")], answer: .status(200))
    #expect(header.match(stubRequest(.get, "https://a.example/me")) == nil)
    #expect(
      header.match(stubRequest(.get, "https://a.example/me", headers: ["Authorization": "x"]))
        != nil)

    let json = #"{"password":"p","email":"a@b.c","extra":[1,2]}"#
    let post = { (matcher: StubMatcher) in
      StubRoute(.post, "login", matchers: [matcher], answer: .status(200))
        .match(stubRequest(.post, "https://a.example/login", body: json)) != nil
    }
    #expect(post(.jsonBody(containing: ["email": "a@b.c"])))
    #expect(!post(.jsonBody(containing: ["email": "x@b.c"])))
    #expect(post(.jsonBody(["extra": [1, 2], "email": "a@b.c", "password": "p"])))
    #expect(!post(.jsonBody(["email": "a@b.c"])))
    #expect(post(.bodyContains("a@b.c")))

    let form = StubRoute(
      .post, "oauth/token", matchers: [.formBody(containing: ["grant_type": "password"])],
      answer: .status(200))
    let grant = "grant_type=password&username=a%40b.c&password=p+q"
    let request = stubRequest(.post, "https://a.example/oauth/token", body: grant)
    #expect(form.match(request) != nil)
    #expect(request.formBody == ["grant_type": "password", "username": "a@b.c", "password": "p q"])
  }

  @Test func theFirstMatchingRouteAnswers() async throws {
    let routes = StubRoutes()
      .on(.get, "v2/places/{id}", query: ["v": "1"], answer: .json(["route": "query"]))
      .on(.get, "v2/places/{id}", answer: .json(["route": "first"]))
      .on(.get, "v2/places/7", answer: .json(["route": "second"]))
    let connection = stubConnection(StubTransport(routes: routes))
    let plain = try await connection.execute(StubCall<[String: String]>(path: "v2/places/7")).value
    #expect(plain == ["route": "first"])
    let narrowed = StubCall<[String: String]>(
      path: "v2/places/7", queryItems: [URLQueryItem(name: "v", value: "1")])
    #expect(try await connection.execute(narrowed).value == ["route": "query"])
  }

  @Test func anUnmatchedRequestFailsWithAnErrorListingEveryRoute() async throws {
    let routes = StubRoutes()
      .on(.get, "v2/places", answer: .json([]))
      .on(
        .post, "oauth/token", where: [.formBody(containing: ["grant_type": "password"])],
        answer: .status(200))
    let connection = stubConnection(StubTransport(routes: routes))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(StubCall<[String]>(path: "v2/missing"))
    }
    let failure = try #require(transportFailure(in: error))
    #expect(failure.kind == .other)
    #expect(
      failure.detail
        == "no stub for GET https://api.example.com/api/v2/missing; registered: GET v2/places; "
        + "POST oauth/token [form body containing grant_type=password]")
    #expect(routes.unmatchedRequests.map(\.url.path) == ["/api/v2/missing"])
  }

  @Test func anEmptyTableSaysSo() async throws {
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await stubConnection(StubTransport(routes: StubRoutes()))
        .execute(StubCall<[String]>(path: "x"))
    }
    #expect(transportFailure(in: error)?.detail.hasSuffix("registered: none") == true)
  }

  @Test func everyRequestIsRecordedInOrderWithItsParametersAndBody() async throws {
    let routes = StubRoutes()
      .on(.get, "v2/places/{id}", answer: .json(["id": 1]))
      .on(.post, "v2/places", answer: .json(["id": 2], status: 201))
    let transport = StubTransport(routes: routes)
    let connection = stubConnection(transport)
    _ = try await connection.execute(StubCall<[String: Int]>(path: "v2/places/1"))
    _ = try await connection.execute(
      StubCall<[String: Int]>(method: .post, path: "v2/places", body: .json(["name": "Pier"])))
    _ = try? await connection.execute(StubCall<[String: Int]>(path: "nowhere"))

    let recorded = routes.requests
    #expect(recorded.map(\.method) == [.get, .post, .get])
    #expect(recorded.map(\.url.path) == ["/api/v2/places/1", "/api/v2/places", "/api/nowhere"])
    #expect(recorded[0].pathParameters == ["id": "1"])
    #expect(recorded[1].jsonBody as? [String: String] == ["name": "Pier"])
    #expect(recorded[1].header("Content-Type") == "application/json")
    #expect(transport.requests.count == 3)
  }

  @Test func removeAllForgetsRoutesAndRequests() {
    let routes = StubRoutes().on(.get, "a", answer: .status(200))
    _ = routes.answer(for: stubRequest(.get, "https://a.example/a"))
    routes.removeAll()
    #expect(routes.routes.isEmpty)
    #expect(routes.requests.isEmpty)
  }
}
