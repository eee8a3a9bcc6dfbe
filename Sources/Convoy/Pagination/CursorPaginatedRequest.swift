/// A paginated request that continues from an opaque cursor the previous answer returned
/// (`{"items": […], "next_cursor": "abc"}` → `?after=abc`).
///
/// ```swift
/// struct Events: CursorPaginatedRequest {
///   typealias Response = JSONResponse<EventPage>
///   var cursor: String?
///   var method: HTTPMethod { .get }
///   var path: String { "events" }
///   var queryItems: [URLQueryItem] { cursor.map { [URLQueryItem(name: "after", value: $0)] } ?? [] }
///   func elements(in response: Response) -> [Event] { response.value.items }
///   func nextCursor(in response: Response) -> String? { response.value.nextCursor }
/// }
/// ```
public protocol CursorPaginatedRequest: PaginatedRequest {
  /// Where this page starts; `nil` for the first page.
  var cursor: String? { get set }

  /// The cursor of the next page, or `nil` (or an empty string) when `response` is the last.
  func nextCursor(in response: Response) -> String?
}

extension CursorPaginatedRequest {
  /// This request from the next cursor; `nil` when there is none, or when the server repeats
  /// the current cursor (which would page forever).
  public func nextPageRequest(after response: Response) -> Self? {
    guard let next = nextCursor(in: response), !next.isEmpty, next != cursor else { return nil }
    var request = self
    request.cursor = next
    return request
  }
}
