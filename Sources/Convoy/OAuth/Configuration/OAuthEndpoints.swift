import Foundation

/// Where an authorization server's endpoints are: discovered from its issuer (RFC 8414, OpenID
/// Connect Discovery), given one by one, or both (a given endpoint wins over a discovered one).
///
/// An endpoint is a path resolved against the configuration's base URL (`"oauth/token"`) or an
/// absolute URL (`"https://id.example.com/oauth2/token"`).
public struct OAuthEndpoints: Sendable, Hashable, CustomStringConvertible {
  /// The issuer whose metadata names the endpoints not given here; `nil` for no discovery.
  public var issuer: URL?
  /// The token endpoint (RFC 6749 §3.2).
  public var token: String?
  /// The authorization endpoint, for the authorization code grant (RFC 6749 §3.1).
  public var authorization: String?
  /// The device authorization endpoint (RFC 8628 §3.1).
  public var deviceAuthorization: String?
  /// The revocation endpoint (RFC 7009 §2).
  public var revocation: String?

  /// Endpoints given one by one, optionally completed by discovery from `issuer`.
  public init(
    issuer: URL? = nil, token: String? = nil, authorization: String? = nil,
    deviceAuthorization: String? = nil, revocation: String? = nil
  ) {
    self.issuer = issuer
    self.token = token
    self.authorization = authorization
    self.deviceAuthorization = deviceAuthorization
    self.revocation = revocation
  }

  /// Every endpoint discovered from `issuer`'s metadata, fetched once per connection.
  public static func discovered(issuer: URL) -> OAuthEndpoints {
    OAuthEndpoints(issuer: issuer)
  }

  /// Whether every endpoint is given, so there is nothing to discover.
  var isComplete: Bool {
    token != nil && authorization != nil && deviceAuthorization != nil && revocation != nil
  }

  /// The endpoints given, and the issuer.
  public var description: String {
    let named: [(String, String?)] = [
      ("issuer", issuer?.absoluteString), ("token", token), ("authorization", authorization),
      ("deviceAuthorization", deviceAuthorization), ("revocation", revocation),
    ]
    return "OAuthEndpoints("
      + named.compactMap { name, value in value.map { "\(name): \($0)" } }.joined(separator: ", ")
      + ")"
  }
}
