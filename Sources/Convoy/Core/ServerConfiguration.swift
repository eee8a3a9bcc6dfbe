import Foundation

/// Where an API lives and how calls to it are made by default.
///
/// ```swift
/// extension ServerConfiguration {
///   static let staging = ServerConfiguration(
///     environment: .staging, baseURL: URL(string: "https://staging.example.com/api/")!)
/// }
/// ```
public struct ServerConfiguration: Sendable {
  /// The environment's name.
  public var environment: ServerEnvironment
  /// The URL every request path is resolved against; its path is kept as a prefix.
  public var baseURL: URL
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

  /// Creates a configuration.
  public init(
    environment: ServerEnvironment,
    baseURL: URL,
    defaultHeaders: HTTPHeaders = HTTPHeaders(),
    timeout: TimeInterval = 60,
    redirectPolicy: RedirectPolicy = .standard,
    retryPolicy: RetryPolicy = .standard,
    authentication: AuthenticationConfiguration = AuthenticationConfiguration()
  ) {
    self.environment = environment
    self.baseURL = baseURL
    self.defaultHeaders = defaultHeaders
    self.timeout = timeout
    self.redirectPolicy = redirectPolicy
    self.retryPolicy = retryPolicy
    self.authentication = authentication
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
    let lowered = path.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
    return URLComponents(string: path)
  }
}
