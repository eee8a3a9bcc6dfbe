import Testing

@testable import Convoy

@Suite struct HTTPHeaderNameTests {
  @Test(arguments: [
    ("Content-Type", "content-type", true), ("ETAG", "ETag", true), ("X-A", "X-B", false),
    ("Accept", "Accept-Language", false), ("X-@", "X-`", false), ("X-[", "X-{", false),
    ("Straße", "STRASSE", true), ("Ünïcode", "üNÏCODE", true), ("", "", true),
  ])
  func namesMatchIgnoringCaseOnly(first: String, second: String, match: Bool) {
    #expect(HTTPHeaders.namesMatch(first, second) == match)
    #expect(HTTPHeaders.namesMatch(second, first) == match)
    #expect(
      HTTPHeaders.namesMatch(first, second)
        == (first.caseInsensitiveCompare(second) == .orderedSame))
  }

  @Test func lookupsAndRemovalIgnoreTheCaseOfNames() {
    var headers: HTTPHeaders = ["Set-Cookie": "a=1", "set-cookie": "b=2", "ETag": "\"x\""]
    #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
    #expect(headers["etag"] == "\"x\"")
    #expect(headers.contains("Etag"))
    headers.remove("set-COOKIE")
    #expect(headers.fields.map(\.name) == ["ETag"])
  }
}
