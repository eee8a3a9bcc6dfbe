/// A paginated request that asks for pages by number (`?page=3`).
///
/// ```swift
/// struct Places: PageNumberPaginatedRequest {
///   typealias Response = JSONResponse<[Place]>
///   typealias Element = Place
///   var page = 1
///   var method: HTTPMethod { .get }
///   var path: String { "v2/places" }
///   var queryItems: [URLQueryItem] { [URLQueryItem(name: "page", value: String(page))] }
/// }
/// ```
public protocol PageNumberPaginatedRequest: PaginatedRequest {
  /// The number of the page this request asks for.
  var page: Int { get set }

  /// Whether `response` is the last page. Default: it holds no items, which costs one empty
  /// request at the end; implement it when the answer says how many pages there are.
  func isLastPage(_ response: Response) -> Bool
}

extension PageNumberPaginatedRequest {
  /// A page without items is the last one.
  public func isLastPage(_ response: Response) -> Bool {
    elements(in: response).isEmpty
  }

  /// This request for `page + 1`, unless `response` was the last page.
  public func nextPageRequest(after response: Response) -> Self? {
    guard !isLastPage(response) else { return nil }
    var request = self
    request.page += 1
    return request
  }
}
