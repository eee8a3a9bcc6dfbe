import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Appends query items to the request's URL, after any it already has.
///
/// Names and values are encoded strictly (RFC 3986 unreserved characters only), so `+`, `&` and
/// `=` in a value arrive as themselves. The pipeline applies a request's
/// ``RequestDescribing/queryItems`` with it; connection-wide it adds, say, an API key to every
/// call.
struct QueryItemsAdapter: RequestAdapter, DeadlineAware {
  /// The items to append, in order.
  var queryItems: [URLQueryItem]

  /// Creates the adapter.
  init(_ queryItems: [URLQueryItem]) {
    self.queryItems = queryItems
  }

  /// Returns the request with the items appended to its URL.
  ///
  /// - Throws: ``ServerConnectionError/invalidURL(_:)`` when the URL cannot take them.
  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    guard !queryItems.isEmpty else { return request }
    guard let url = request.url,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    else { throw ServerConnectionError.invalidURL("the request has no URL to add a query to") }
    components.percentEncodedQuery = URLEncoding.appendQueryItems(
      queryItems, to: components.percentEncodedQuery)
    guard let newURL = components.url else {
      throw ServerConnectionError.invalidURL("the query items do not form a valid URL")
    }
    var request = request
    request.url = newURL
    return request
  }
}
