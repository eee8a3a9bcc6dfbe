/// A request for one page of a list that can describe the request for the page after it.
///
/// Adopt one of the strategies, which write ``nextPageRequest(after:)`` for you:
/// ``LinkHeaderPaginatedRequest`` (`Link: <…>; rel="next"`, GitHub style),
/// ``PageNumberPaginatedRequest`` (`?page=3`) or ``CursorPaginatedRequest`` (`?after=abc`).
/// Then load pages with a ``Paginator`` or iterate ``ServerConnection/pages(of:)``.
///
/// ```swift
/// struct Repositories: LinkHeaderPaginatedRequest {
///   typealias Response = JSONResponse<[Repository]>
///   typealias Element = Repository  // elements(in:) then defaults to the decoded array
///   var pageURL: URL?
///   var method: HTTPMethod { .get }
///   var path: String { pageURL?.absoluteString ?? "orgs/swiftlang/repos" }
/// }
/// ```
public protocol PaginatedRequest: RequestDescribing {
  /// One item of the list.
  associatedtype Element: Sendable

  /// The items one page holds. Default, when the response is `JSONResponse<[Element]>`: its
  /// value (name `Element` with a `typealias` then, since Swift cannot infer it from a default).
  func elements(in response: Response) -> [Element]

  /// The request for the page after the one `response` answered, or `nil` when it was the last.
  func nextPageRequest(after response: Response) -> Self?
}

extension PaginatedRequest {
  /// The page's items, followed by the request for the next page.
  func page(from response: Response) -> Page<Self> {
    Page(
      request: self, response: response, elements: elements(in: response),
      nextRequest: nextPageRequest(after: response))
  }
}

extension PaginatedRequest where Response == JSONResponse<[Element]> {
  /// The decoded array.
  public func elements(in response: Response) -> [Element] { response.value }
}
