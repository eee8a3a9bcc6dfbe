import Foundation

/// Where a server issues tokens and how Convoy keeps them fresh.
///
/// The defaults match the demo Places API: `POST users/retrieve-client` for the client secret and
/// `POST oauth/token` for the password and refresh-token grants (RFC 6749 §4.3 and §6).
public struct AuthenticationConfiguration: Sendable, Hashable {
  /// How the client credentials reach the token endpoint (RFC 6749 §2.3.1).
  public enum ClientAuthentication: Sendable, Hashable {
    /// `client_id` and `client_secret` as form parameters.
    case requestBody
    /// HTTP Basic with the client id and secret.
    case basicHeader
  }

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

  /// The path of the endpoint that exchanges email and password for client credentials.
  public var clientSecretPath: String
  /// The OAuth2 token endpoint's path.
  public var tokenPath: String
  /// How client credentials are presented to the token endpoint.
  public var clientAuthentication: ClientAuthentication
  /// Extra form parameters for every grant, e.g. `["scope": "places:read"]`.
  public var additionalGrantParameters: [String: String]
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

  /// Creates a configuration; every parameter has the demo API's default.
  public init(
    clientSecretPath: String = "users/retrieve-client",
    tokenPath: String = "oauth/token",
    clientAuthentication: ClientAuthentication = .requestBody,
    additionalGrantParameters: [String: String] = [:],
    refreshMargin: TimeInterval = 60,
    invalidTokenSignals: [InvalidTokenSignal] = [.unauthorized],
    maximumRefreshesPerWindow: Int = 5,
    refreshWindow: TimeInterval = 60
  ) {
    self.clientSecretPath = clientSecretPath
    self.tokenPath = tokenPath
    self.clientAuthentication = clientAuthentication
    self.additionalGrantParameters = additionalGrantParameters
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
