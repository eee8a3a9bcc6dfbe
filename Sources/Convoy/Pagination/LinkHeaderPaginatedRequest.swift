import Foundation

/// A paginated request whose answers name the next page in a `Link` header
/// (`Link: <https://api.example.com/items?page=3>; rel="next"`), as GitHub's API does.
///
/// The first page has ``pageURL`` `nil`; later pages set it to the link's absolute URL, which
/// ``ServerConfiguration/url(path:queryItems:)`` accepts as a path. Return it from `path` and
/// leave `queryItems` empty for those pages, since the link already carries the query:
///
/// ```swift
/// struct Repositories: LinkHeaderPaginatedRequest {
///   typealias Response = JSONResponse<[Repository]>
///   typealias Element = Repository
///   var pageURL: URL?
///   var method: HTTPMethod { .get }
///   var path: String { pageURL?.absoluteString ?? "orgs/swiftlang/repos" }
///   var queryItems: [URLQueryItem] {
///     pageURL == nil ? [URLQueryItem(name: "per_page", value: "100")] : []
///   }
/// }
/// ```
public protocol LinkHeaderPaginatedRequest: PaginatedRequest
where Response: HTTPResponseProviding {
  /// The absolute URL of this page, from the previous page's `rel="next"` link; `nil` for the
  /// first page.
  var pageURL: URL? { get set }
}

extension LinkHeaderPaginatedRequest {
  /// This request for the `rel="next"` link of `response`; `nil` without one, or when the link
  /// points at this same page (a server that would otherwise be paged forever).
  public func nextPageRequest(after response: Response) -> Self? {
    guard let next = response.response.url(forLinkRelation: "next"),
      next != pageURL, next != response.response.url
    else { return nil }
    var request = self
    request.pageURL = next
    return request
  }
}
