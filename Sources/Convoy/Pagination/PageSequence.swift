/// The pages of a paginated request, fetched one at a time as the loop asks for them.
///
/// Nothing is fetched until the first iteration, and each page only when the loop asks for
/// it, so breaking out of the loop or cancelling its task stops fetching: a cancelled task's
/// next step throws ``ServerConnectionError/cancelled`` and sends nothing.
///
/// ```swift
/// for try await page in connection.pages(of: Repositories()) {
///   show(page.elements)
/// }
/// ```
public struct PageSequence<Request: PaginatedRequest>: AsyncSequence, Sendable {
  /// A loaded page.
  public typealias Element = Page<Request>

  let connection: ServerConnection
  let firstPage: Request

  /// Iterates pages from the first.
  public func makeAsyncIterator() -> Iterator {
    Iterator(connection: connection, next: firstPage)
  }

  /// Fetches the next page on each call to `next()`.
  public struct Iterator: AsyncIteratorProtocol {
    let connection: ServerConnection
    var next: Request?

    /// The next page, or `nil` after the last one.
    public mutating func next() async throws -> Page<Request>? {
      guard let request = next else { return nil }
      if Task.isCancelled {
        next = nil
        throw ServerConnectionError.cancelled
      }
      do {
        let page = request.page(from: try await connection.execute(request))
        next = page.nextRequest
        return page
      } catch {
        next = nil
        throw error
      }
    }
  }

  /// The items of every page, in order, fetched a page at a time.
  public var elements: PaginatedElementSequence<Request> {
    PaginatedElementSequence(pages: self)
  }
}

/// The items of a paginated request across all its pages, fetched a page at a time.
public struct PaginatedElementSequence<Request: PaginatedRequest>: AsyncSequence, Sendable {
  /// One item.
  public typealias Element = Request.Element

  let pages: PageSequence<Request>

  /// Iterates items from the first page's first.
  public func makeAsyncIterator() -> Iterator {
    Iterator(pages: pages.makeAsyncIterator())
  }

  /// Hands out the buffered page's items, fetching the next page when they run out.
  public struct Iterator: AsyncIteratorProtocol {
    var pages: PageSequence<Request>.Iterator
    var buffer: [Request.Element] = []
    var index = 0

    /// The next item, or `nil` after the last page's last.
    public mutating func next() async throws -> Request.Element? {
      while index == buffer.count {
        guard let page = try await pages.next() else { return nil }
        buffer = page.elements
        index = 0
      }
      defer { index += 1 }
      return buffer[index]
    }
  }
}

extension ServerConnection {
  /// The pages of `firstPage` and those after it, fetched as the loop asks for them.
  public func pages<Request: PaginatedRequest>(of firstPage: Request) -> PageSequence<Request> {
    PageSequence(connection: self, firstPage: firstPage)
  }
}
