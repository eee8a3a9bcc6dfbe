import Foundation
import Testing

@testable import Convoy

@Suite struct LinkHeaderTests {
  private let base = URL(string: "https://api.example.com/v3/repos?page=2")!

  @Test func findsTheNextLinkAmongSeveral() {
    let header = LinkHeader(
      #"<https://api.example.com/v3/repos?page=3>; rel="next", <https://api.example.com/v3/repos?page=9>; rel="last""#,
      baseURL: base)
    #expect(header.links.count == 2)
    #expect(
      header.url(forRelation: "next")?.absoluteString == "https://api.example.com/v3/repos?page=3")
    #expect(
      header.url(forRelation: "LAST")?.absoluteString == "https://api.example.com/v3/repos?page=9")
    #expect(header.url(forRelation: "prev") == nil)
  }

  @Test func quotedParametersMayHoldCommasAndSemicolons() {
    let header = LinkHeader(
      #"<a?x=1,2>; title="one, two; three"; rel="next prev", <b>; rel=first"#, baseURL: base)
    #expect(header.links.map(\.relations) == [["next", "prev"], ["first"]])
    #expect(header.links.first?.parameters["title"] == "one, two; three")
    #expect(header.links.first?.url.absoluteString == "https://api.example.com/v3/a?x=1,2")
  }

  @Test func relativeReferencesResolveAgainstTheResponseURL() {
    let header = LinkHeader(#"</v3/repos?page=3>; rel="next""#, baseURL: base)
    #expect(
      header.url(forRelation: "next")?.absoluteString == "https://api.example.com/v3/repos?page=3")
  }

  @Test func linksAboutAnotherResourceAndMalformedItemsAreSkipped() {
    let header = LinkHeader(
      ##"<https://x.example/1>; rel="next"; anchor="#other", nonsense, <https://x.example/2>; rel=next; rel=prev"##,
      baseURL: base)
    #expect(header.links.count == 1)
    #expect(header.url(forRelation: "next")?.absoluteString == "https://x.example/2")
  }

  @Test func anAnswerNamesAnyOfItsLinksByRelation() {
    let headers = HTTPHeaders([
      "Link": #"<?page=3>; rel="next", <?page=9>; rel="last""#
    ])
    let response = HTTPResponse(statusCode: 200, url: base, headers: headers)
    #expect(
      response.url(forLinkRelation: "Last")?.absoluteString
        == "https://api.example.com/v3/repos?page=9")
    #expect(response.url(forLinkRelation: "prev") == nil)
  }
}
