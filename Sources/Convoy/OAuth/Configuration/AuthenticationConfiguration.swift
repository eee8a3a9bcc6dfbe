import Foundation

/// Who the app is at its authorization server, and how Convoy keeps tokens fresh.
///
/// ```swift
/// let authentication = AuthenticationConfiguration(
///   client: OAuthClient(
///     id: "places-cli", endpoints: .discovered(issuer: URL(string: "https://id.example.com")!)))
/// ```
public struct AuthenticationConfiguration: Sendable, Hashable {
  /// An answer that means "this token is no longer good" and asks for a renewal.
  public struct InvalidTokenSignal: Sendable, Hashable {
    /// The status, e.g. 401, or 403 for servers that use it.
    public var status: Int
    /// When set, a JSON body must carry this value under ``codeKey`` too.
    public var errorCode: String?
    /// The body key the error code is read from.
    public var codeKey: String

    /// Creates a signal.
    public init(status: Int, errorCode: String? = nil, codeKey: String = "code") {
      self.status = status
      self.errorCode = errorCode
      self.codeKey = codeKey
    }

    /// Any 401.
    public static let unauthorized = InvalidTokenSignal(status: 401)
  }

  /// The OAuth2 client the app is, and where its server's endpoints are; `nil` when the app
  /// installs sessions it got elsewhere and never renews them.
  public var client: OAuthClient?
  /// A token expiring within this many seconds is renewed before the request is sent; never
  /// more than half the token's lifetime (``AccessToken/maximumMarginShare``).
  public var refreshMargin: TimeInterval
  /// Answers that trigger a renewal and one replay.
  public var invalidTokenSignals: [InvalidTokenSignal]
  /// More renewals than this within ``refreshWindow`` of tokens that were not yet due (the
  /// server rejecting fresh tokens) are reported as a server fault.
  public var maximumRefreshesPerWindow: Int
  /// The window for ``maximumRefreshesPerWindow``, in seconds.
  public var refreshWindow: TimeInterval

  /// Creates a configuration.
  public init(
    client: OAuthClient? = nil,
    refreshMargin: TimeInterval = 60,
    invalidTokenSignals: [InvalidTokenSignal] = [.unauthorized],
    maximumRefreshesPerWindow: Int = 5,
    refreshWindow: TimeInterval = 60
  ) {
    self.client = client
    self.refreshMargin = refreshMargin
    self.invalidTokenSignals = invalidTokenSignals
    self.maximumRefreshesPerWindow = maximumRefreshesPerWindow
    self.refreshWindow = refreshWindow
  }

  /// Whether `status` and `body` match one of ``invalidTokenSignals``.
  public func signalsInvalidToken(status: Int, body: Data) -> Bool {
    invalidTokenSignals.contains { signal in
      guard signal.status == status else { return false }
      guard let code = signal.errorCode else { return true }
      let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
      guard let value = object?[signal.codeKey] else { return false }
      return "\(value)" == code
    }
  }
}
