import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Asks the server for the app's client credentials with the user's email and password
/// (the demo API's `POST users/retrieve-client`).
public struct ClientSecretRequest: RequestDescribing {
  /// The answer: the client credentials.
  public struct Response: ResponseDescribing {
    /// The credentials issued.
    public let clientSecret: ClientSecret
    /// The status, URL and headers.
    public let response: HTTPResponse

    private struct Payload: Decodable {
      var clientId: String
      var clientSecret: String
    }

    /// Decodes `{"client_id": …, "client_secret": …}`.
    public init(data: Data, response: HTTPResponse) throws {
      self.response = response
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let payload = try decoder.decode(Payload.self, from: data)
      clientSecret = ClientSecret(id: payload.clientId, secret: payload.clientSecret)
    }
  }

  /// The user's email.
  public var email: String
  /// The user's password; sent in the body, never logged.
  public var password: String
  /// Where the endpoint is.
  public var configuration: AuthenticationConfiguration

  /// Creates the request.
  public init(email: String, password: String, configuration: AuthenticationConfiguration) {
    self.email = email
    self.password = password
    self.configuration = configuration
  }

  /// `POST`.
  public var method: HTTPMethod { .post }
  /// The configured client-secret path.
  public var path: String { configuration.clientSecretPath }
  /// `{"email": …, "password": …}`.
  public var body: RequestBody? { .json(["email": email, "password": password]) }
}

/// An OAuth2 grant at the token endpoint: the password grant (RFC 6749 §4.3) or the refresh
/// grant (§6), form-encoded, with the client authenticated as configured (§2.3.1).
public struct AccessTokenRequest: RequestDescribing {
  /// Which grant is asked for.
  public enum Grant: Sendable {
    /// Resource owner password credentials.
    case password(username: String, password: String)
    /// A refresh token.
    case refreshToken(String)
  }

  /// The answer: an access token (RFC 6749 §5.1).
  public struct Response: ResponseDescribing {
    /// The token, with its expiry computed from `expires_in`.
    public let accessToken: AccessToken
    /// The status, URL and headers.
    public let response: HTTPResponse

    private struct Payload: Decodable {
      var accessToken: String
      var tokenType: String?
      var expiresIn: Double?
      var refreshToken: String?
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
        // RFC 6750 §2.1: the scheme is "Bearer" whatever case the server used for token_type.
        type: payload.tokenType.map { $0.lowercased() == "bearer" ? "Bearer" : $0 } ?? "Bearer",
        expiresAt: payload.expiresIn.map { issued.addingTimeInterval($0) },
        refreshToken: payload.refreshToken, issuedAt: issued)
    }
  }

  /// The grant.
  public var grant: Grant
  /// The client the token is for.
  public var clientSecret: ClientSecret
  /// Where the endpoint is and how the client authenticates.
  public var configuration: AuthenticationConfiguration

  /// Creates the request.
  public init(grant: Grant, clientSecret: ClientSecret, configuration: AuthenticationConfiguration)
  {
    self.grant = grant
    self.clientSecret = clientSecret
    self.configuration = configuration
  }

  /// `POST`.
  public var method: HTTPMethod { .post }
  /// The configured token path.
  public var path: String { configuration.tokenPath }
  /// ``AuthorizationErrorDecoding/chain``: a refusal is an ``AuthorizationError``.
  public var decisions: [any ResponseDecision]? { AuthorizationErrorDecoding.chain }

  /// HTTP Basic client authentication when configured so.
  public var headers: HTTPHeaders {
    guard configuration.clientAuthentication == .basicHeader else { return HTTPHeaders() }
    // RFC 6749 §2.3.1: id and secret are form-encoded before being joined for Basic.
    let pair =
      URLEncoding.encodeStrictly(clientSecret.id) + ":"
      + URLEncoding.encodeStrictly(clientSecret.secret)
    return ["Authorization": "Basic " + Data(pair.utf8).base64EncodedString()]
  }

  /// The grant's parameters, form-encoded.
  public var body: RequestBody? {
    var parameters = configuration.additionalGrantParameters
    switch grant {
    case .password(let username, let password):
      parameters["grant_type"] = "password"
      parameters["username"] = username
      parameters["password"] = password
    case .refreshToken(let token):
      parameters["grant_type"] = "refresh_token"
      parameters["refresh_token"] = token
    }
    if configuration.clientAuthentication == .requestBody {
      parameters["client_id"] = clientSecret.id
      parameters["client_secret"] = clientSecret.secret
    }
    // RFC 6749 §4.3.2 names the bare media type, without a charset parameter.
    let encoded = FormURLEncoder().encode(parameters.mapValues(FormValue.string))
    return .data(Data(encoded.utf8), contentType: "application/x-www-form-urlencoded")
  }
}
