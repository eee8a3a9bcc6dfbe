import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct HTTPResponseTests {
  private let url = URL(string: "https://api.example.com/places?page=2")!

  private func response() -> HTTPResponse {
    var headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": "\"v1\""]
    headers.add(name: "Set-Cookie", value: "a=1")
    headers.add(name: "set-cookie", value: "b=2")
    return HTTPResponse(statusCode: 201, url: url, headers: headers)
  }

  @Test func readsBackWhatItWasMadeOf() {
    let response = response()
    #expect(response.statusCode == 201)
    #expect(response.url == url)
    #expect(response.headers.fields.count == 4)
    #expect(response.headers.fields.first?.name == "Content-Type")
  }

  @Test func looksUpHeadersCaseInsensitivelyAndKeepsRepeatsApart() {
    let response = response()
    #expect(response.headers["etag"] == "\"v1\"")
    #expect(response.headers["CONTENT-TYPE"] == "application/json")
    #expect(response.headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
    #expect(response.headers["Set-Cookie"] == "a=1, b=2")
  }

  @Test func buildsAnHTTPURLResponseThatSaysTheSame() {
    let built = response().httpURLResponse
    #expect(built.statusCode == 201)
    #expect(built.url == url)
    #expect(built.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(built.value(forHTTPHeaderField: "etag") == "\"v1\"")
    #expect(built.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
    #expect(built.value(forHTTPHeaderField: "X-Missing") == nil)
  }

  @Test func aHeadWithoutURLStillBuildsOne() {
    let built = HTTPResponse(statusCode: 204, url: nil, headers: [:]).httpURLResponse
    #expect(built.statusCode == 204)
    #expect(built.url?.absoluteString == "about:blank")
  }

  @Test func readingStatusAndHeadersBuildsNothing() {
    let response = response()
    _ = response.statusCode
    _ = response.url
    _ = response.headers["ETag"]
    #expect(!response.isHTTPURLResponseBuilt)

    let transported = TransportResponse(
      head: response, data: Data(),
      metrics: TransferMetrics(startDate: Date(), duration: 0, bytesReceived: 0, bytesSent: 0))
    _ = transported.statusCode
    _ = transported.headers["ETag"]
    #expect(!transported.head.isHTTPURLResponseBuilt)
  }

  @Test func buildsOnceAndSharesItAcrossCopies() {
    let response = response()
    let copy = response
    let first = response.httpURLResponse
    #expect(response.isHTTPURLResponseBuilt)
    #expect(response.httpURLResponse === first)
    #expect(copy.isHTTPURLResponseBuilt)
    #expect(copy.httpURLResponse === first)
  }

  @Test func keepsTheVeryHTTPURLResponseItWasMadeFrom() throws {
    let original = try #require(
      HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["ETag": "\"v2\"", "content-length": "3"]))
    let response = HTTPResponse(original)
    #expect(response.httpURLResponse === original)
    #expect(response.statusCode == 200)
    #expect(response.url == url)
    #expect(response.headers["etag"] == "\"v2\"")
    #expect(response.headers["Content-Length"] == "3")

    let transported = TransportResponse(
      httpURLResponse: original, data: Data(),
      metrics: TransferMetrics(startDate: Date(), duration: 0, bytesReceived: 0, bytesSent: 0))
    #expect(transported.httpURLResponse === original)
  }

  @Test func concurrentFirstAccessBuildsOneInstance() async {
    let response = response()
    let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<64 {
        group.addTask { ObjectIdentifier(response.httpURLResponse) }
      }
      var identities = Set<ObjectIdentifier>()
      for await identity in group { identities.insert(identity) }
      return identities
    }
    #expect(identities.count == 1)
    #expect(identities.first == ObjectIdentifier(response.httpURLResponse))
  }
}
