import Convoy
import ConvoyTesting
import Foundation
import Testing

/// Code generated from Tests/Fixtures/OpenAPI/articles.yaml, run against stubbed answers: what
/// it sends and what it makes of the answers.
@Suite struct GeneratedRequestTests {
  private let article: [String: Any] = [
    "id": 7, "title": "Hello", "created": "2024-05-01T12:30:00Z", "day": "2024-05-01",
    "status": "in-review", "priority": 2, "subtitle": NSNull(), "self": "me",
    "2fa-enabled": true, "metadata": ["a": "b"], "extra": ["any": [1, "two", nil]],
    "parent": ["id": 1, "title": "Root", "created": "2024-01-01T00:00:00.250Z"],
    "pet": ["kind": "cat", "lives": 9],
  ]

  @Test func aListDecodesInOneLine() async {
    #expect(
      await ArticlesAPI.Articles.listArticles(tag: "swift").stubbed(.json([article])).succeeds {
        $0.value.first?.title == "Hello" && $0.value.first?.parent?.value.title == "Root"
      })
  }

  @Test func formatsEnumsAndChoicesDecode() async throws {
    let value = try await ArticlesAPI.Articles.listArticles().stubbed(.json([article])).response()
      .value[0]
    #expect(value.created == Date(timeIntervalSince1970: 1_714_566_600))
    #expect(value.day == ArticlesAPI.CalendarDate(year: 2024, month: 5, day: 1))
    #expect(value.status == .inReview)
    #expect(value.priority == .value2)
    #expect(value.selfValue == "me")
    #expect(value._2faEnabled == true)
    #expect(value.pet == .cat(ArticlesAPI.Cat(kind: "cat", lives: 9)))
    #expect(value.extra == .object(["any": .array([.integer(1), .string("two"), .null])]))
  }

  /// A union whose branches fix the discriminator's value themselves (as OpenAI's streaming
  /// events do) decodes each value to its branch, the inline one included.
  @Test func eventsAreChosenByTheValueTheirBranchFixes() throws {
    func decode(_ json: String) throws -> ArticlesAPI.Event {
      try JSONDecoder().decode(ArticlesAPI.Event.self, from: Data(json.utf8))
    }
    #expect(
      try decode(#"{"type": "text.delta", "delta": "Hi"}"#)
        == .textDelta(ArticlesAPI.TextDelta(type: .textDelta, delta: "Hi")))
    #expect(
      try decode(#"{"type": "finished"}"#) == .finished(ArticlesAPI.Finished(type: .finished)))
    guard case .option3(let failure) = try decode(#"{"type": "failed", "retryable": true}"#) else {
      Issue.record("a failure decoded as another case")
      return
    }
    #expect(failure.retryable == true)
    #expect(throws: DecodingError.self) { try decode(#"{"type": "unheard-of"}"#) }
  }

  @Test func unknownEnumValuesDoNotBreakDecoding() async throws {
    var changed = article
    changed["status"] = "retracted"
    let value = try await ArticlesAPI.Articles.listArticles().stubbed(.json([changed])).response()
    #expect(value.value[0].status == .unknown("retracted"))
  }

  @Test func naiveDateTimesAreReadAsUTC() async throws {
    var changed = article
    changed["created"] = "2024-05-01T12:30:00.123456"
    let value = try await ArticlesAPI.Articles.listArticles().stubbed(.json([changed])).response()
    #expect(abs(value.value[0].created.timeIntervalSince1970 - 1_714_566_600.123) < 0.001)
  }

  @Test func parametersGoWhereTheDocumentSays() async throws {
    let request = ArticlesAPI.Articles.listArticles(
      tag: "a b", ids: [1, 2], filter: ArticlesAPI.Filter(author: "ann", minScore: 3),
      xRequestID: UUID(uuidString: "00000000-0000-0000-0000-000000000001"), session: "s1",
      status: .published)
    let sent = try #require(try await request.stubbed(.json([])).sentRequest())
    #expect(sent.url.path == "/articles")
    let query = Dictionary(sent.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    #expect(query["tag"] == "a b")
    #expect(query["ids"] == "1,2")
    #expect(query["filter[author]"] == "ann")
    #expect(query["filter[minScore]"] == "3")
    #expect(query["status"] == "published")
    #expect(
      sent.urlRequest.value(forHTTPHeaderField: "X-Request-ID")
        == "00000000-0000-0000-0000-000000000001")
    #expect(sent.urlRequest.value(forHTTPHeaderField: "Cookie") == "session=s1")
  }

  @Test func jsonBodiesAndTokensAreSent() async throws {
    let request = ArticlesAPI.Articles.createArticle(
      body: ArticlesAPI.NewArticle(author: "ann", title: "New"))
    let call = request.stubbed(.json(article, status: 201))
    let sent = try #require(try await call.sentRequest())
    #expect(sent.urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer stub-token")
    #expect(sent.jsonBody as? [String: String] == ["author": "ann", "title": "New"])
    #expect(await call.succeeds { $0.value.id == 7 })
  }

  @Test func pathParametersAreEncodedAndEmptyAnswersAccepted() async throws {
    let call = ArticlesAPI.Articles.deleteArticle(id: 42).stubbed(.status(204))
    #expect(try await call.sentRequest()?.url.path == "/articles/42")
    #expect(await call.succeeds { $0.response.statusCode == 204 })
  }

  @Test func formBodiesAreURLEncoded() async throws {
    let request = ArticlesAPI.Articles.renameArticle(
      id: 1, body: .init(title: "T", tags: ["x", "y"], score: 1.5))
    let sent = try #require(try await request.stubbed(.status(200)).sentRequest())
    #expect(sent.formBody["title"] == "T")
    #expect(sent.formBody["score"] == "1.5")
  }

  @Test func multipartBodiesCarryTheirFiles() async throws {
    let request = ArticlesAPI.Articles.uploadCover(
      id: 1, body: .init(file: Data("PNG".utf8), caption: "Cover"))
    let sent = try #require(
      try await request.stubbed(.response(status: 200, headers: [:], body: Data([1, 2])))
        .sentRequest())
    #expect(sent.bodyText.contains("name=\"file\"; filename=\"file\""))
    #expect(sent.bodyText.contains("Cover"))
  }

  @Test func documentedErrorsFailWithTheServersMessage() async {
    let answer = StubAnswer.json(
      ["detail": [["msg": "tag too long", "loc": ["query"]]]], status: 422)
    #expect(
      await ArticlesAPI.Articles.listArticles(tag: "x").stubbed(answer).fails(
        saying: "tag too long"))
  }

  @Test func rawBodiesAndFreeFormAnswers() async throws {
    let call = ArticlesAPI.Default.uploadRaw(body: Data([9])).stubbed(.json(["ok": true]))
    #expect(try await call.sentRequest()?.body == Data([9]))
    #expect(await call.succeeds { $0.value == .object(["ok": .bool(true)]) })
  }
}
