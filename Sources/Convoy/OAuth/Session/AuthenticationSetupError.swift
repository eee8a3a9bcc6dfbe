/// The app's authentication setup cannot do what was asked: no client is configured, the server
/// names no endpoint for a grant, or its metadata is not the configured issuer's.
///
/// Worded as ``ErrorCategory/appMisconfigured``: only a new version of the app can fix it.
public enum AuthenticationSetupError: CategorizedError, Sendable, Hashable, CustomStringConvertible
{
  /// ``AuthenticationConfiguration/client`` is `nil`.
  case noClient
  /// Neither the configuration nor the server's metadata names this endpoint, e.g.
  /// `"device_authorization_endpoint"`.
  case missingEndpoint(String)
  /// The metadata found was not issued by the configured issuer (RFC 8414 §3.3), or none was
  /// found; the string says which.
  case discoveryFailed(String)

  /// ``ErrorCategory/appMisconfigured``.
  public var category: ErrorCategory { .appMisconfigured }

  /// A developer-facing description.
  public var description: String {
    switch self {
    case .noClient: "no OAuth2 client is configured (AuthenticationConfiguration.client)"
    case .missingEndpoint(let name): "the authorization server names no \(name)"
    case .discoveryFailed(let reason): "authorization server discovery failed: \(reason)"
    }
  }
}
