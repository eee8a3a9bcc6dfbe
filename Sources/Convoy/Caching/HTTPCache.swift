import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111) on storage Convoy controls: a memory layer and an optional
/// disk layer, each bounded in bytes, least recently used evicted first.
///
/// Convoy keeps its own cache instead of `URLCache` because FoundationNetworking on Linux never
/// writes to `URLCache` and never revalidates; with its own storage the rules are the same on
/// every platform. Give it to a connection through the `cache:` parameter of
/// ``ServerConnection``'s initializer, or wrap a transport in ``CachingTransport``.
///
/// ```swift
/// let cache = HTTPCache(memoryCapacity: 8 << 20, diskCapacity: 64 << 20, directory: cachesURL)
/// let connection = ServerConnection(configuration: .production, cache: cache)
/// ```
///
/// It is a *private* cache (RFC 9111 §1): answers to signed requests are stored too, so give
/// each account its own cache, or call ``removeAll()`` at logout.
public final class HTTPCache: Sendable {
  /// The statuses RFC 9110 §15.1 makes heuristically cacheable, minus `206`: partial content is
  /// never stored, because Convoy does not combine ranges.
  private static let storableStatuses: Set<Int> = [
    200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501,
  ]

  private let memory: MemoryCacheStore
  private let disk: DiskCacheStore?
  /// The clock freshness and age are judged by.
  let clock: any ConvoyClock

  /// Creates a cache.
  ///
  /// - Parameters:
  ///   - memoryCapacity: Bytes the memory layer may hold; `0` keeps nothing in memory.
  ///   - diskCapacity: Bytes the disk layer may hold; `0` (the default) means no disk layer.
  ///   - directory: Where the disk layer keeps its files; it is created when missing. Give every
  ///     cache its own directory. `nil` uses `Convoy.HTTPCache` in the user's caches directory.
  ///   - clock: The clock freshness and age are judged by: real time by default; give it the
  ///     ``ServerConfiguration/clock`` of the connection it serves, so that a test clock ages the
  ///     stored answers.
  public init(
    memoryCapacity: Int = 4 * 1024 * 1024, diskCapacity: Int = 0, directory: URL? = nil,
    clock: any ConvoyClock = .system
  ) {
    memory = MemoryCacheStore(capacity: memoryCapacity)
    if diskCapacity > 0, let directory = directory ?? Self.defaultDirectory {
      disk = DiskCacheStore(directory: directory, capacity: diskCapacity)
    } else {
      disk = nil
    }
    self.clock = clock
  }

  /// The current date on the cache's clock.
  func now() -> Date { clock.now }

  private static var defaultDirectory: URL? {
    FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
      .appendingPathComponent("Convoy.HTTPCache", isDirectory: true)
  }

  /// Bytes the memory layer may hold.
  public var memoryCapacity: Int { memory.capacity }
  /// Bytes the disk layer may hold; `0` when there is no disk layer.
  public var diskCapacity: Int { disk?.capacity ?? 0 }
  /// Where the disk layer keeps its files, if there is one.
  public var directory: URL? { disk?.directory }
  /// Bytes the memory layer holds now (bodies, headers and bookkeeping, estimated).
  public var currentMemoryUsage: Int { memory.currentUsage }
  /// Bytes the disk layer's files take now.
  public var currentDiskUsage: Int { disk?.currentUsage ?? 0 }

  /// Forgets every stored answer, in memory and on disk.
  public func removeAll() {
    memory.removeAll()
    disk?.removeAll()
  }

  /// Forgets the stored `GET` and `HEAD` answers for `url`.
  public func removeResponses(for url: URL) {
    for method in [HTTPMethod.get, .head] {
      let key = CacheEntry.key(method: method, url: url)
      memory.remove(key)
      disk?.remove(key)
    }
  }

  /// Whether an answer to `request` is stored (fresh or not), for diagnostics and tests.
  public func containsResponse(for request: URLRequest) -> Bool {
    entry(matching: request) != nil
  }

  /// The stored answer for `request`'s method and URL whose `Vary`'d headers match.
  func entry(matching request: URLRequest) -> CacheEntry? {
    guard let url = request.url else { return nil }
    let key = CacheEntry.key(method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), url: url)
    if let entry = memory.entry(for: key) {
      return entry.matchesVary(of: request) ? entry : nil
    }
    guard let entry = disk?.entry(for: key, now: now()) else { return nil }
    memory.store(entry)
    return entry.matchesVary(of: request) ? entry : nil
  }

  func store(_ entry: CacheEntry) {
    memory.store(entry)
    disk?.store(entry, now: now())
  }

  /// Stores `response` when RFC 9111 §3 allows it and it can be reused: an understood method
  /// and status, no `no-store` on either side, and explicit freshness or a validator (without
  /// heuristics nothing else could ever be served). A `2xx` that may not be stored still
  /// replaces what was stored, since it supersedes it.
  func storeIfAllowed(
    _ response: TransportResponse, for request: URLRequest, requestDate: Date, responseDate: Date
  ) {
    guard let url = request.url else { return }
    let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
    guard method == .get || method == .head else { return }
    let key = CacheEntry.key(method: method, url: url)
    let status = response.statusCode
    let control = CacheControl(response.headers)
    let hasExplicitFreshness = control.maxAge != nil || response.headers.contains("Expires")
    let hasValidators =
      response.headers.contains("ETag")
      || response.headers.contains("Last-Modified")
    guard Self.storableStatuses.contains(status), !control.noStore,
      !CacheControl(request.value(forHTTPHeaderField: "Cache-Control")).noStore,
      hasExplicitFreshness || hasValidators,
      let varying = CacheEntry.varyingHeaders(
        of: request, vary: response.headers.values(for: "Vary"))
    else {
      if (200..<300).contains(status) {
        memory.remove(key)
        disk?.remove(key)
      }
      return
    }
    store(
      CacheEntry(
        key: key, url: url, statusCode: status, headers: response.headers, body: response.data,
        requestDate: requestDate, responseDate: responseDate, varyingRequestHeaders: varying))
  }

  /// RFC 9111 §4.4: a successful unsafe request makes what is stored for its URL, and for the
  /// same-origin `Location` and `Content-Location` it names, out of date.
  func invalidate(after request: URLRequest, response: HTTPResponse) {
    guard let url = request.url, (200..<400).contains(response.statusCode)
    else { return }
    removeResponses(for: url)
    for name in ["Location", "Content-Location"] {
      guard let value = response.headers[name],
        let target = URL(string: value, relativeTo: url)?.absoluteURL,
        target.scheme?.lowercased() == url.scheme?.lowercased(),
        target.host?.lowercased() == url.host?.lowercased(), target.port == url.port
      else { continue }
      removeResponses(for: target)
    }
  }
}
