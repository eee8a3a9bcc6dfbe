/// One loaded page: what was asked, what came back, its items and how to ask for more.
public struct Page<Request: PaginatedRequest>: Sendable {
  /// The request that loaded this page.
  public let request: Request
  /// Its answer.
  public let response: Request.Response
  /// The page's items.
  public let elements: [Request.Element]
  /// The request for the next page, or `nil` when this is the last one.
  public let nextRequest: Request?

  /// Whether another page follows.
  public var hasNextPage: Bool { nextRequest != nil }
}
