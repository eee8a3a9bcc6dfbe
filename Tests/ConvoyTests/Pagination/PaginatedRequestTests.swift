import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct EventPage: Decodable, Sendable {
  var items: [String]
  var nextCursor: String?
}

private struct Events: CursorPaginatedRequest {
  typealias Response = JSONResponse<EventPage>
  var cursor: String?
  var method: HTTPMethod { .get }
  var path: String { "events" }
  var queryItems: [URLQueryItem] { cursor.map { [URLQueryItem(name: "after", value: $0)] } ?? [] }
  var decoder: JSONDecoder? {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }
  func elements(in response: Response) -> [String] { response.value.items }
  func nextCursor(in response: Response) -> String? { response.value.nextCursor }
}

private struct Places: PageNumberPaginatedRequest {
  typealias Response = JSONResponse<[String]>
  typealias Element = String
  var page = 1
  var method: HTTPMethod { .get }
  var path: String { "places" }
  var queryItems: [URLQueryItem] { [URLQueryItem(name: "page", value: String(page))] }
}

private func query(_ request: TransportRequest, _ name: String) -> String? {
  URLComponents(url: request.urlRequest.url!, resolvingAgainstBaseURL: false)?
    .queryItems?.first { $0.name == name }?.value
}

@Suite struct PaginatedRequestTests {
  @Test func followsLinkHeadersUntilThereIsNoNextLink() async throws {
    let stub = linkedPagesStub()
    let all = try await ServerConnection.paging(stub).pages(of: Repositories()).elements
      .reduce(into: []) { $0.append($1) }
    #expect(all == [11, 12, 21, 22, 31, 32])
    #expect(
      stub.requests.map { $0.urlRequest.url!.absoluteString } == [
        "http://127.0.0.1:8080/repos", "http://127.0.0.1:8080/repos?page=2",
        "http://127.0.0.1:8080/repos?page=3",
      ])
  }

  @Test func followsCursorsUntilTheServerGivesNone() async throws {
    let stub = StubTransport { request in
      switch query(request, "after") {
      case nil: .json(["items": ["a", "b"], "next_cursor": "c2"])
      case "c2": .json(["items": ["c"], "next_cursor": "c3"])
      default: .json(["items": ["d"]])
      }
    }
    var pages: [[String]] = []
    for try await page in ServerConnection.paging(stub).pages(of: Events()) {
      pages.append(page.elements)
    }
    #expect(pages == [["a", "b"], ["c"], ["d"]])
    #expect(stub.requests.map { query($0, "after") } == [nil, "c2", "c3"])
  }

  @Test func aRepeatedCursorEndsThePaging() async throws {
    let stub = StubTransport { _ in .json(["items": ["x"], "next_cursor": "same"]) }
    let pages = try await ServerConnection.paging(stub).pages(of: Events())
      .reduce(into: 0) { count, _ in count += 1 }
    #expect(pages == 2)
  }

  @Test func pageNumbersCountUpUntilAnEmptyPage() async throws {
    let stub = StubTransport { request in
      Int(query(request, "page") ?? "") ?? 9 <= 2 ? .json(["p"]) : .json([String]())
    }
    let all = try await ServerConnection.paging(stub).pages(of: Places()).elements
      .reduce(into: []) { $0.append($1) }
    #expect(all == ["p", "p"])
    #expect(stub.requests.map { query($0, "page") } == ["1", "2", "3"])
  }

  @Test func cancellingTheLoopingTaskStopsFetching() async throws {
    let stub = linkedPagesStub()
    let connection = ServerConnection.paging(stub)
    let task = Task {
      var seen = 0
      for try await _ in connection.pages(of: Repositories()) {
        seen += 1
        withUnsafeCurrentTask { $0?.cancel() }
      }
      return seen
    }
    await #expect(throws: ServerConnectionError.cancelled) { try await task.value }
    #expect(stub.requests.count == 1)
  }

  @Test func breakingOutOfTheLoopFetchesNothingMore() async throws {
    let stub = linkedPagesStub()
    for try await element in ServerConnection.paging(stub).pages(of: Repositories()).elements
    where element == 12 {
      break
    }
    #expect(stub.requests.count == 1)
  }
}
