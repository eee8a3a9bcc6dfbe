import Convoy

// The FastAPI app's pages name the next offset themselves.
extension FastAPIArticles.Articles.ListArticles: PaginatedRequest {
  /// One item of a page.
  public typealias Element = FastAPIArticles.Article

  /// The page's items.
  public func elements(in response: Response) -> [FastAPIArticles.Article] {
    response.value.items
  }

  /// The request for the following page, `nil` after the last.
  public func nextPageRequest(after response: Response) -> Self? {
    guard let following = response.value.nextOffset else { return nil }
    var next = self
    next.offset = following
    return next
  }
}
