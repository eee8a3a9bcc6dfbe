import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A grant at the token endpoint (RFC 6749 §4 and §6, RFC 8628 §3.4), form-encoded, with the
/// client authenticated as it is configured (§2.3.1).
///
/// The grants of ``PasswordLogin``, ``ClientCredentialsLogin``, ``AuthorizationCodeLogin`` and
/// ``DeviceLogin`` and every renewal are made of it; a custom login can use it too.
public struct AccessTokenRequest: OAuthFormRequest {
  /// Which grant is asked for.
  public enum Grant: Sendable, Hashable {
    /// Resource owner password credentials (RFC 6749 §4.3; legacy, RFC 9700 §2.4).
    case password(username: String, password: String)
    /// A refresh token (RFC 6749 §6).
    case refreshToken(String)
    /// The client's own credentials (RFC 6749 §4.4).
    case clientCredentials
    /// An authorization code, with the PKCE verifier (RFC 6749 §4.1.3, RFC 7636 §4.5).
    case authorizationCode(code: String, redirectURI: String, codeVerifier: String?)
    /// A device code the person approved (RFC 8628 §3.4).
    case deviceCode(String)
  }

  /// The answer: an access token (RFC 6749 §5.1).
  public struct Response: ResponseDescribing {
    /// The token, with its expiry computed from `expires_in`.
    public let accessToken: AccessToken
    /// The scopes granted, when the server says (RFC 6749 §5.1).
    public let scopes: [String]?
    /// The status, URL and headers.
    public let response: HTTPResponse

    private struct Payload: Decodable {
      var accessToken: String
      var tokenType: String?
      var expiresIn: Double?
      var refreshToken: String?
      var scope: String?
    }

    /// Decodes the token endpoint's JSON.
    public init(data: Data, response: HTTPResponse) throws {
      self.response = response
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let payload = try decoder.decode(Payload.self, from: data)
      let issued = Date()
      accessToken = AccessToken(
        value: payload.accessToken,
        // RFC 6750 §2.1: the scheme is "Bearer" whatever case the server used for token_type;
        // an empty one counts as none, or the Authorization header would start with a space
        // (found by FuzzOAuthBodies, issue #27).
        type: payload.tokenType.flatMap { type in
          let type = type.trimmingCharacters(in: .whitespaces)
          return type.isEmpty ? nil : type.lowercased() == "bearer" ? "Bearer" : type
        } ?? "Bearer",
        expiresAt: payload.expiresIn.map { issued.addingTimeInterval($0) },
        refreshToken: payload.refreshToken, issuedAt: issued)
      scopes = payload.scope.map { $0.split(separator: " ").map(String.init) }
    }
  }

  /// The grant.
  public var grant: Grant
  /// The client the token is for, and how it authenticates.
  public var client: OAuthClient
  /// The token endpoint: a path or an absolute URL.
  public var endpoint: String

  /// Creates the request.
  public init(grant: Grant, client: OAuthClient, endpoint: String) {
    self.grant = grant
    self.client = client
    self.endpoint = endpoint
  }

  /// The grant's parameters and the client's additional ones.
  public var formParameters: [String: String] {
    var parameters = client.additionalParameters
    var asksForScopes = false
    switch grant {
    case .password(let username, let password):
      parameters["grant_type"] = "password"
      parameters["username"] = username
      parameters["password"] = password
      asksForScopes = true
    case .refreshToken(let token):
      parameters["grant_type"] = "refresh_token"
      parameters["refresh_token"] = token
    case .clientCredentials:
      parameters["grant_type"] = "client_credentials"
      asksForScopes = true
    case .authorizationCode(let code, let redirectURI, let verifier):
      parameters["grant_type"] = "authorization_code"
      parameters["code"] = code
      parameters["redirect_uri"] = redirectURI
      parameters["code_verifier"] = verifier
    case .deviceCode(let code):
      parameters["grant_type"] = "urn:ietf:params:oauth:grant-type:device_code"
      parameters["device_code"] = code
    }
    // A refresh keeps the scopes of the grant it renews (RFC 6749 §6); the code and device
    // grants asked for theirs in an earlier step.
    if asksForScopes, !client.scopes.isEmpty {
      parameters["scope"] = client.scopes.joined(separator: " ")
    }
    return parameters
  }
}

extension AccessTokenRequest.Grant: CustomStringConvertible, CustomReflectable {
  /// The grant type as sent, e.g. `password`; never a credential.
  public var description: String {
    switch self {
    case .password: "password"
    case .refreshToken: "refresh_token"
    case .clientCredentials: "client_credentials"
    case .authorizationCode: "authorization_code"
    case .deviceCode: "urn:ietf:params:oauth:grant-type:device_code"
    }
  }
  /// A mirror without credentials, so `dump` stays safe.
  public var customMirror: Mirror { Mirror(self, children: ["grant": description]) }
}

extension AccessTokenRequest: CustomStringConvertible, CustomReflectable {
  /// The grant's kind and the client, without any secret.
  public var description: String {
    "AccessTokenRequest(\(grant), client: \(client.id), endpoint: \(endpoint))"
  }
  /// A mirror without credentials, so `dump` stays safe.
  public var customMirror: Mirror {
    Mirror(self, children: ["grant": grant.description, "client": client, "endpoint": endpoint])
  }
}

extension AccessTokenRequest.Response: HTTPResponseProviding {}
