import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct HTTPHeadersTests {
  @Test func looksUpNamesCaseInsensitively() {
    let headers: HTTPHeaders = ["Content-Type": "application/json"]
    #expect(headers["content-type"] == "application/json")
    #expect(headers["CONTENT-TYPE"] == "application/json")
    #expect(headers.contains("Content-type"))
  }

  @Test func keepsRepeatedFieldsApartAndJoinsThemOnRead() {
    var headers = HTTPHeaders()
    headers.add(name: "Accept", value: "text/html")
    headers.add(name: "accept", value: "application/json")
    #expect(headers.values(for: "ACCEPT") == ["text/html", "application/json"])
    #expect(headers["Accept"] == "text/html, application/json")
  }

  @Test func settingReplacesEveryFieldOfThatName() {
    var headers: HTTPHeaders = ["X-A": "1", "x-a": "2", "Other": "o"]
    headers["X-a"] = "3"
    #expect(headers.values(for: "x-a") == ["3"])
    headers["x-A"] = nil
    #expect(!headers.contains("X-A"))
    #expect(headers["Other"] == "o")
  }

  @Test func mergingLetsTheOtherSideWin() {
    let defaults: HTTPHeaders = ["Accept": "*/*", "User-Agent": "convoy"]
    let merged = defaults.merging(["accept": "application/json"])
    #expect(merged["Accept"] == "application/json")
    #expect(merged["User-Agent"] == "convoy")
    #expect(merged.values(for: "Accept").count == 1)
  }

  @Test func readsResponseHeadersWhateverTheirCase() {
    let response = HTTPURLResponse(
      url: URL(string: "https://h.example")!, statusCode: 200, httpVersion: "HTTP/1.1",
      headerFields: ["ETag": "\"abc\"", "content-length": "3"])!
    let headers = HTTPHeaders(response)
    #expect(headers["etag"] == "\"abc\"")
    #expect(headers["Content-Length"] == "3")
  }
}
