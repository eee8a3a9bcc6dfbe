import Convoy

// Generated requests are plain structs with `var` parameters, so Convoy's pagination is one
// extension away: limit/offset paging as drf-spectacular documents it.
extension DRFNotes.Notes.NotesList: PaginatedRequest {
  /// One item of a page.
  public typealias Element = DRFNotes.Note

  /// The page's items.
  public func elements(in response: Response) -> [DRFNotes.Note] { response.value.results }

  /// The request for the following page, `nil` after the last.
  public func nextPageRequest(after response: Response) -> Self? {
    guard response.value.next != nil else { return nil }
    var next = self
    next.offset = (offset ?? 0) + response.value.results.count
    return next
  }
}
