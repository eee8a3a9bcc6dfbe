/// Loads the pages of a list on demand and keeps the items loaded so far, for screens that
/// show a list and fetch more as the user scrolls.
///
/// Safe to use from any task: concurrent ``loadNextPage()`` calls share one fetch instead of
/// loading a page twice, and ``refresh()`` starts over from the first page, discarding a
/// next-page fetch still in flight (whose callers then get ``ServerConnectionError/cancelled``).
/// Cancelling the only caller's task cancels its fetch; when several callers share one, the
/// fetch is cancelled only once every one of them has been, and until then a cancelled caller
/// receives the shared outcome.
///
/// ```swift
/// let paginator = Paginator(connection: connection, firstPage: Repositories())
/// try await paginator.refresh()
/// while paginator.hasNextPage { try await paginator.loadNextPage() }
/// print(paginator.elements.count)
/// ```
public final class Paginator<Request: PaginatedRequest>: Sendable {
  private struct Load {
    let task: Task<[Request.Element], any Error>
    let isRefresh: Bool
    var waiters = 0
    var cancelledWaiters = 0
  }

  private struct State {
    var elements: [Request.Element] = []
    var next: Request?
    var hasLoaded = false
    var generation = 0
    var load: Load?
  }

  /// The connection pages are fetched on.
  public let connection: ServerConnection
  /// The request for the first page.
  public let firstPage: Request
  private let state = Locked(State())

  /// Creates a paginator; nothing is fetched until ``refresh()`` or ``loadNextPage()``.
  public init(connection: ServerConnection, firstPage: Request) {
    self.connection = connection
    self.firstPage = firstPage
  }

  /// Every item loaded so far, in page order.
  public var elements: [Request.Element] { state.withLock { $0.elements } }

  /// Whether a page remains to be loaded: `true` before the first load, then whether the last
  /// page loaded named a next one.
  public var hasNextPage: Bool { state.withLock { !$0.hasLoaded || $0.next != nil } }

  /// Whether a page is being fetched.
  public var isLoading: Bool { state.withLock { $0.load != nil } }

  /// How many callers wait for the fetch under way (0 when none is): for tests that must know a
  /// second caller joined before the answer may come.
  package var callersOfTheLoad: Int { state.withLock { $0.load?.waiters ?? 0 } }

  /// Loads the first page and replaces ``elements`` with its items once it has arrived.
  ///
  /// - Returns: The first page's items.
  @discardableResult
  public func refresh() async throws -> [Request.Element] {
    try await wait(for: startLoad(refreshing: true))
  }

  /// Loads the next page (the first, if none was loaded) and appends its items; joins a fetch
  /// already in flight instead of starting another.
  ///
  /// - Returns: The new page's items; empty when there is no next page.
  @discardableResult
  public func loadNextPage() async throws -> [Request.Element] {
    try await wait(for: startLoad(refreshing: false))
  }

  /// Starts (or joins) a load and counts the caller as waiting on it.
  private func startLoad(refreshing: Bool) -> (
    task: Task<[Request.Element], any Error>, generation: Int
  )? {
    state.withLock { state in
      if var load = state.load, load.isRefresh || !refreshing {
        load.waiters += 1
        state.load = load
        return (load.task, state.generation)
      }
      // A refresh replaces a next-page load: its page would belong to the old list.
      state.load?.task.cancel()
      if refreshing { state.generation += 1 }
      guard let request = refreshing || !state.hasLoaded ? firstPage : state.next else {
        return nil
      }
      let generation = state.generation
      let task = Task { [connection] in
        do {
          let page = request.page(from: try await connection.execute(request))
          finish(generation, with: page, replacing: refreshing)
          return page.elements
        } catch {
          finish(generation, with: nil, replacing: false)
          throw error
        }
      }
      state.load = Load(task: task, isRefresh: refreshing, waiters: 1)
      return (task, generation)
    }
  }

  private func finish(_ generation: Int, with page: Page<Request>?, replacing: Bool) {
    state.withLock { state in
      guard state.generation == generation else { return }
      state.load = nil
      guard let page else { return }
      state.elements =
        replacing || !state.hasLoaded ? page.elements : state.elements + page.elements
      state.next = page.nextRequest
      state.hasLoaded = true
    }
  }

  private func wait(
    for load: (task: Task<[Request.Element], any Error>, generation: Int)?
  ) async throws -> [Request.Element] {
    guard let load else { return [] }
    return try await withTaskCancellationHandler {
      try await load.task.value
    } onCancel: {
      leave(load.task)
    }
  }

  /// A waiting caller was cancelled; the last one out cancels the fetch.
  private func leave(_ task: Task<[Request.Element], any Error>) {
    let cancelNow = state.withLock { state -> Bool in
      guard var load = state.load, load.task == task else { return false }
      load.cancelledWaiters += 1
      state.load = load
      return load.cancelledWaiters >= load.waiters
    }
    if cancelNow { task.cancel() }
  }
}
