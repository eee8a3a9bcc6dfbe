import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A grant at the token endpoint (RFC 6749 §4 and §6, RFC 8628 §3.4), form-encoded, with the
/// client authenticated as it is configured (§2.3.1).
///
/// Every ``Login`` and every renewal sends one; a login of your own sends one with a grant of
/// its own:
///
/// ```swift
/// struct TokenExchangeGrant: OAuthGrant {
///   var subjectToken: String
///   var grantType: String { "urn:ietf:params:oauth:grant-type:token-exchange" }
///   var parameters: [String: String] {
///     [
///       "subject_token": subjectToken,
///       "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
///     ]
///   }
/// }
///
/// func exchange(_ token: String, client: OAuthClient) -> AccessTokenRequest {
///   AccessTokenRequest(
///     grant: TokenExchangeGrant(subjectToken: token), client: client, endpoint: "o/token/")
/// }
/// ```
public struct AccessTokenRequest: OAuthFormRequest {
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
        // (FuzzOAuthBodies checks it).
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
  public var grant: any OAuthGrant
  /// The client the token is for, and how it authenticates.
  public var client: OAuthClient
  /// The token endpoint: a path or an absolute URL.
  public var endpoint: String

  /// Creates the request.
  ///
  /// - Parameters:
  ///   - grant: The grant, e.g. `.password(username:password:)`, `.clientCredentials`,
  ///     `.refreshToken(_:)`, or a grant type of your own.
  ///   - client: The client the token is for, and how it authenticates.
  ///   - endpoint: The token endpoint: a path or an absolute URL.
  public init(grant: some OAuthGrant, client: OAuthClient, endpoint: String) {
    self.grant = grant
    self.client = client
    self.endpoint = endpoint
  }

  /// The client's additional parameters, the grant's, `grant_type` and, for a grant that asks
  /// for them, the client's scopes.
  public var formParameters: [String: String] {
    var parameters = client.additionalParameters
    parameters.merge(grant.parameters) { _, grant in grant }
    parameters["grant_type"] = grant.grantType
    if grant.asksForScopes, !client.scopes.isEmpty {
      parameters["scope"] = client.scopes.joined(separator: " ")
    }
    return parameters
  }
}

extension AccessTokenRequest: CustomStringConvertible, CustomReflectable {
  /// The grant's kind and the client, without any secret.
  public var description: String {
    "AccessTokenRequest(\(grant), client: \(client.id), endpoint: \(endpoint))"
  }
  /// A mirror without credentials, so `dump` stays safe.
  public var customMirror: Mirror {
    Mirror(self, children: ["grant": grant.grantType, "client": client, "endpoint": endpoint])
  }
}

extension AccessTokenRequest.Response: HTTPResponseProviding {}
