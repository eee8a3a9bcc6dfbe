import Foundation

/// Where an API lives and how calls to it are made by default.
///
/// ```swift
/// extension ServerConfiguration {
///   static let staging = ServerConfiguration(
///     environment: .staging, baseURL: URL(string: "https://staging.example.com/api/")!)
///   static let production = ServerConfiguration(
///     environment: .production, baseURL: URL(string: "https://api.example.com/")!)
/// }
/// ```
public struct ServerConfiguration: Sendable {
  /// The environment's name.
  public var environment: ServerEnvironment
  /// The URL every request path is resolved against; its path is kept as a prefix.
  public var baseURL: URL {
    didSet { parsedBase = ParsedBaseURL(baseURL) }
  }
  /// Headers sent with every request; a request's own headers win.
  public var defaultHeaders: HTTPHeaders
  /// The longest a whole call may take, redirects included, before it fails with
  /// ``ServerConnectionError/timedOut(_:)``. Convoy enforces it itself because
  /// FoundationNetworking ignores `timeoutIntervalForResource`.
  public var timeout: TimeInterval
  /// How redirects are followed.
  public var redirectPolicy: RedirectPolicy
  /// How calls are retried after a transient failure; a request may bring its own.
  public var retryPolicy: RetryPolicy
  /// Where tokens are issued and how they are kept fresh.
  public var authentication: AuthenticationConfiguration
  /// The time the connection's calls read and wait on: deadlines, retry back-off, token expiry
  /// and the refresh margin, stream reconnection delays, device-code polling. Real time
  /// (``SystemClock``) by default; tests pass `ConvoyTesting`'s `TestClock`.
  public var clock: any ConvoyClock
  /// Whether a call waits for the network instead of failing, when the connection's
  /// ``ConnectivityMonitor`` says offline: before it is sent, and before it is sent again after
  /// an attempt failed offline (at once when the network returns, not after a back-off). The
  /// wait ends at the call's deadline, when the call fails offline
  /// (``ErrorCategory/offline``). `false` by default, as `URLSessionConfiguration`'s
  /// `waitsForConnectivity`: a call that does not wait fails at once while offline. A request
  /// may say otherwise with ``RequestDescribing/waitsForConnectivity``.
  public var waitsForConnectivity = false
  /// How large an answer may be before the call fails with
  /// ``TransportFailure/Kind/responseTooLarge``: a buffered body of 64 MiB and a head of 1,000
  /// fields or 256 KiB unless told otherwise.
  public var responseLimits = ResponseLimits()
  /// `baseURL` taken apart once: every call builds a URL, and parsing the base with
  /// `URLComponents` each time is costly next to the rest of building the request.
  private var parsedBase: ParsedBaseURL?

  /// Creates a configuration.
  public init(
    environment: ServerEnvironment,
    baseURL: URL,
    defaultHeaders: HTTPHeaders = HTTPHeaders(),
    timeout: TimeInterval = 60,
    redirectPolicy: RedirectPolicy = .standard,
    retryPolicy: RetryPolicy = .standard,
    authentication: AuthenticationConfiguration = AuthenticationConfiguration(),
    clock: any ConvoyClock = .system
  ) {
    self.environment = environment
    self.baseURL = baseURL
    self.defaultHeaders = defaultHeaders
    self.timeout = timeout
    self.redirectPolicy = redirectPolicy
    self.retryPolicy = retryPolicy
    self.authentication = authentication
    self.clock = clock
    self.parsedBase = ParsedBaseURL(baseURL)
  }

  /// A server on this machine at `http://127.0.0.1:port`.
  public static func local(port: Int, pathPrefix: String = "") -> ServerConfiguration {
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    components.path =
      pathPrefix.hasPrefix("/") || pathPrefix.isEmpty ? pathPrefix : "/" + pathPrefix
    return ServerConfiguration(environment: .local, baseURL: components.url!)
  }

  /// The absolute URL for `path` and `queryItems`.
  ///
  /// A path that is already an absolute `http(s)` URL (a pagination link, say) is used as it is.
  /// Otherwise it is appended to the base URL's path with exactly one slash between them.
  /// Path characters that may not appear in a URL are percent-encoded and existing `%XX` escapes
  /// kept; query names and values are encoded strictly (RFC 3986 unreserved characters only), so
  /// `+` and `&` in a value arrive as themselves.
  ///
  /// - Throws: ``ServerConnectionError/invalidURL(_:)`` when no valid URL results.
  public func url(path: String, queryItems: [URLQueryItem] = []) throws(ServerConnectionError)
    -> URL
  {
    // The common call, a relative path without query items, joins strings around the parsed
    // base; the general way below gives the same URL, and every error.
    if queryItems.isEmpty, let parsedBase, Self.absoluteURLComponents(path) == nil,
      let url = parsedBase.url(appending: path)
    {
      return url
    }
    return try urlFromComponents(path: path, queryItems: queryItems)
  }

  /// The general way of ``url(path:queryItems:)``, through `URLComponents`; the fast way must
  /// give the same URLs (a test compares them).
  func urlFromComponents(path: String, queryItems: [URLQueryItem]) throws(ServerConnectionError)
    -> URL
  {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
      throw .invalidURL("the base URL \"\(SecretRedactor.redact(baseURL))\" cannot be parsed")
    }
    if let absolute = Self.absoluteURLComponents(path) {
      components = absolute
    } else {
      let prefix = components.percentEncodedPath
      let suffix = URLEncoding.encodePath(path)
      components.percentEncodedPath = URLEncoding.joinPaths(prefix, suffix)
    }
    guard let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
      throw .invalidURL("the scheme must be http or https")
    }
    guard let host = components.host, !host.isEmpty else {
      throw .invalidURL("the URL has no host")
    }
    if !queryItems.isEmpty {
      components.percentEncodedQuery = URLEncoding.appendQueryItems(
        queryItems, to: components.percentEncodedQuery)
    }
    guard let url = components.url else {
      throw .invalidURL("the path \"\(path)\" does not form a valid URL")
    }
    return url
  }

  private static func absoluteURLComponents(_ path: String) -> URLComponents? {
    // Most paths are relative: one byte tells, before a lowercased copy of the path.
    guard let first = path.utf8.first, first | 0x20 == UInt8(ascii: "h") else { return nil }
    let lowered = path.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
    return URLComponents(string: path)
  }
}

/// A valid `http(s)` base URL split around its path: what `URLComponents` would print before the
/// path (scheme, user, host, port), the percent-encoded path, and what it prints after it (query
/// and fragment); and the URLs it gave recent paths, which copies of a configuration share.
private struct ParsedBaseURL: Sendable {
  let head: String
  let path: String
  let tail: String
  let recentURLs = RequestURLMemo()

  /// `nil` when the base is not an `http(s)` URL with a host: such a base takes the general way.
  init?(_ baseURL: URL) {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
      let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
      let host = components.host, !host.isEmpty
    else { return nil }
    path = components.percentEncodedPath
    var tail = ""
    if let query = components.percentEncodedQuery { tail += "?" + query }
    if let fragment = components.percentEncodedFragment { tail += "#" + fragment }
    self.tail = tail
    components.percentEncodedPath = ""
    components.percentEncodedQuery = nil
    components.percentEncodedFragment = nil
    guard let head = components.string else { return nil }
    self.head = head
  }

  /// The base with `relativePath` appended as ``ServerConfiguration/url(path:queryItems:)``
  /// appends it, or `nil` when that does not form a URL.
  func url(appending relativePath: String) -> URL? {
    recentURLs.url(for: relativePath) {
      let joined = URLEncoding.joinPaths(path, URLEncoding.encodePath(relativePath))
      return URL(string: head + joined + tail)
    }
  }
}
