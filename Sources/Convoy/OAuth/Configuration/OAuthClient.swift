import Foundation

/// Who the app is at an OAuth2 authorization server and where that server's endpoints are: what
/// a standard server gives an app up front (RFC 6749 §2).
///
/// ```swift
/// let client = OAuthClient(
///   id: "places-ios", scopes: ["places:read"],
///   endpoints: .discovered(issuer: URL(string: "https://id.example.com")!))
/// let configuration = ServerConfiguration(
///   environment: .production, baseURL: URL(string: "https://api.example.com/")!,
///   authentication: AuthenticationConfiguration(client: client))
/// ```
///
/// Its `description` and mirror never show the secret.
public struct OAuthClient: Sendable, Hashable {
  /// How the client proves who it is at the token endpoint (RFC 6749 §2.3.1; the names are the
  /// `token_endpoint_auth_method` values of RFC 7591).
  public enum AuthenticationMethod: String, Sendable, Hashable, CaseIterable {
    /// HTTP Basic with the form-encoded id and secret.
    case clientSecretBasic = "client_secret_basic"
    /// `client_id` and `client_secret` as form parameters.
    case clientSecretPost = "client_secret_post"
    /// A public client (an app on a device, a command-line tool): `client_id` only.
    case none
  }

  /// The client identifier.
  public var id: String
  /// The client secret of a confidential client; `nil` for a public one.
  public var secret: String?
  /// How the client authenticates at the token endpoint.
  public var authenticationMethod: AuthenticationMethod
  /// The scopes asked for, sent as `scope` (space-separated) with every new grant.
  public var scopes: [String]
  /// Where the server's endpoints are.
  public var endpoints: OAuthEndpoints
  /// Extra form parameters for every grant, e.g. `["audience": "places-api"]`.
  public var additionalParameters: [String: String]

  /// Creates a client description.
  ///
  /// - Parameters:
  ///   - id: The client identifier.
  ///   - secret: The secret of a confidential client.
  ///   - authenticationMethod: `nil` picks ``AuthenticationMethod/clientSecretBasic`` for a
  ///     client with a secret (the method every server must support) and
  ///     ``AuthenticationMethod/none`` otherwise.
  ///   - scopes: The scopes asked for.
  ///   - endpoints: Where the server's endpoints are.
  ///   - additionalParameters: Extra form parameters for every grant.
  public init(
    id: String, secret: String? = nil, authenticationMethod: AuthenticationMethod? = nil,
    scopes: [String] = [], endpoints: OAuthEndpoints,
    additionalParameters: [String: String] = [:]
  ) {
    self.id = id
    self.secret = secret
    self.authenticationMethod =
      authenticationMethod ?? (secret == nil ? .none : .clientSecretBasic)
    self.scopes = scopes
    self.endpoints = endpoints
    self.additionalParameters = additionalParameters
  }

  /// The same client presenting other credentials, e.g. those a login was issued.
  public func presenting(_ credentials: ClientSecret) -> OAuthClient {
    var client = self
    client.id = credentials.id
    client.secret = credentials.secret
    return client
  }

  /// The headers and form parameters that authenticate the client (RFC 6749 §2.3.1 and §3.2.1).
  /// The `Authorization` field of HTTP Basic client authentication, when the client uses it;
  /// no field otherwise. Every request to the authorization server sends these headers.
  var authenticationHeaders: HTTPHeaders {
    guard let header = authentication().header else { return HTTPHeaders() }
    return ["Authorization": header]
  }

  func authentication() -> (header: String?, parameters: [String: String]) {
    switch authenticationMethod {
    case .clientSecretBasic:
      // RFC 6749 §2.3.1: id and secret are form-encoded before being joined for Basic.
      let pair = URLEncoding.encodeStrictly(id) + ":" + URLEncoding.encodeStrictly(secret ?? "")
      return ("Basic " + Data(pair.utf8).base64EncodedString(), [:])
    case .clientSecretPost:
      return (nil, ["client_id": id, "client_secret": secret ?? ""])
    case .none:
      return (nil, ["client_id": id])
    }
  }
}

extension OAuthClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `OAuthClient(id: app, secret: <redacted>, method: client_secret_basic, …)`.
  public var description: String {
    "OAuthClient(id: \(id), secret: \(secret == nil ? "none" : SecretRedactor.mask), "
      + "method: \(authenticationMethod.rawValue), scopes: \(scopes), endpoints: \(endpoints))"
  }
  /// The same as ``description``.
  public var debugDescription: String { description }
  /// A mirror without the secret, so `dump` stays safe.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "id": id, "secret": secret == nil ? "none" : SecretRedactor.mask,
        "authenticationMethod": authenticationMethod, "scopes": scopes, "endpoints": endpoints,
      ])
  }
}
