import Foundation

/// What an authorization server says about itself (RFC 8414 §2; OpenID Connect Discovery 1.0
/// §3 uses the same names).
struct AuthorizationServerMetadata: Decodable, Sendable, Hashable {
  /// The issuer identifier; it must be the issuer the metadata was asked for (RFC 8414 §3.3).
  var issuer: String
  /// The token endpoint.
  var tokenEndpoint: String?
  /// The authorization endpoint.
  var authorizationEndpoint: String?
  /// The device authorization endpoint (RFC 8628 §4).
  var deviceAuthorizationEndpoint: String?
  /// The revocation endpoint (RFC 8414 §2).
  var revocationEndpoint: String?
  /// The PKCE methods the server supports, e.g. `["S256"]`.
  var codeChallengeMethodsSupported: [String]?
  /// The grants the server supports.
  var grantTypesSupported: [String]?

  private enum CodingKeys: String, CodingKey {
    case issuer
    case tokenEndpoint = "token_endpoint"
    case authorizationEndpoint = "authorization_endpoint"
    case deviceAuthorizationEndpoint = "device_authorization_endpoint"
    case revocationEndpoint = "revocation_endpoint"
    case codeChallengeMethodsSupported = "code_challenge_methods_supported"
    case grantTypesSupported = "grant_types_supported"
  }

  /// The two places metadata may be, in the order they are tried: RFC 8414's
  /// `/.well-known/oauth-authorization-server` inserted before the issuer's path (§3.1), then
  /// OpenID Connect's `/.well-known/openid-configuration` appended to it.
  static func locations(of issuer: URL) -> [URL] {
    guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: true) else {
      return []
    }
    let path =
      components.percentEncodedPath.hasSuffix("/")
      ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
    components.query = nil
    components.fragment = nil
    components.percentEncodedPath = "/.well-known/oauth-authorization-server" + path
    let standard = components.url
    components.percentEncodedPath = path + "/.well-known/openid-configuration"
    return [standard, components.url].compactMap { $0 }
  }

  /// Whether this metadata is `issuer`'s, ignoring one trailing slash.
  func isIssued(by issuer: URL) -> Bool {
    let trim = { (text: String) in text.hasSuffix("/") ? String(text.dropLast()) : text }
    return trim(self.issuer) == trim(issuer.absoluteString)
  }
}

/// Fetches an authorization server's metadata from one of its
/// ``AuthorizationServerMetadata/locations(of:)``.
struct AuthorizationServerMetadataRequest: RequestDescribing {
  typealias Response = JSONResponse<AuthorizationServerMetadata>
  let location: URL
  var method: HTTPMethod { .get }
  var path: String { location.absoluteString }
}

// Here rather than beside OAuthEndpoints: endpoints are configuration, below the discovery that
// completes them.
extension OAuthEndpoints {
  /// These endpoints, with those still missing taken from `metadata`.
  func completed(by metadata: AuthorizationServerMetadata) -> OAuthEndpoints {
    var endpoints = self
    endpoints.token = token ?? metadata.tokenEndpoint
    endpoints.authorization = authorization ?? metadata.authorizationEndpoint
    endpoints.deviceAuthorization = deviceAuthorization ?? metadata.deviceAuthorizationEndpoint
    endpoints.revocation = revocation ?? metadata.revocationEndpoint
    return endpoints
  }
}
