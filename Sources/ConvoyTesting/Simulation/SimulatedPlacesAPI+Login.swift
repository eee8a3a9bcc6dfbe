import Convoy
import Foundation

/// The demo Places API's own two-step login, built only from Convoy's public pieces: the
/// example of a login a standard OAuth2 client cannot do by itself.
///
/// 1. `POST users/retrieve-client` with the user's email and password hands out the client's
///    credentials (a standard server gives an app its client up front instead);
/// 2. the password grant at `oauth/token` with those credentials yields the token.
///
/// The session keeps the credentials (`Session.clientSecret`), so that renewals present them.
extension SimulatedPlacesAPI {
  /// The client as the app knows it before logging in: the token endpoint, and client
  /// authentication in the form body. Its secret arrives with each login.
  public static let oauthClient = OAuthClient(
    id: client.id, authenticationMethod: .clientSecretPost,
    endpoints: OAuthEndpoints(token: "oauth/token"))

  /// The authentication configuration of a connection to the demo API.
  public static let authentication = AuthenticationConfiguration(client: oauthClient)

  /// Asks for the app's client credentials with the user's email and password
  /// (`POST users/retrieve-client`).
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

    /// Creates the request.
    public init(email: String, password: String) {
      self.email = email
      self.password = password
    }

    /// `POST`.
    public var method: HTTPMethod { .post }
    /// `users/retrieve-client`.
    public var path: String { "users/retrieve-client" }
    /// `{"email": …, "password": …}`.
    public var body: RequestBody? { .json(["email": email, "password": password]) }
  }

  /// Logs a user in to the demo API: client credentials, then the password grant with them,
  /// then the `Session`.
  ///
  /// ```swift
  /// try await connection.login(
  ///   with: SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "demo-password"))
  /// ```
  public struct LoginJob: Job, CustomStringConvertible, CustomReflectable {
    /// The user's email.
    public var email: String
    /// The user's password.
    public var password: String

    /// Creates the job.
    public init(email: String, password: String) {
      self.email = email
      self.password = password
    }

    /// Client credentials → access token → session, with the connection's configured client
    /// (or ``SimulatedPlacesAPI/oauthClient``) presenting the credentials the login got.
    public func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
      let (email, password) = (email, password)
      let known = connection.configuration.authentication.client ?? oauthClient
      return connection.operation(for: ClientSecretRequest(email: email, password: password))
        .then { answer in
          connection.operation(
            for: AccessTokenRequest(
              grant: DemoPasswordGrant(username: email, password: password),
              client: known.presenting(answer.clientSecret),
              endpoint: known.endpoints.token ?? "oauth/token")
          )
          .map { Session(clientSecret: answer.clientSecret, accessToken: $0.accessToken) }
        }
    }

    /// `LoginJob(email: a@b.c, password: <redacted>)`.
    public var description: String {
      "LoginJob(email: \(email), password: \(SecretRedactor.mask))"
    }
    /// A mirror without the password.
    public var customMirror: Mirror {
      Mirror(self, children: ["email": email, "password": SecretRedactor.mask])
    }
  }
}

extension SimulatedPlacesAPI.ClientSecretRequest.Response: HTTPResponseProviding {}

/// The password grant (RFC 6749 §4.3) as the demo API takes it, written as an app writes a grant
/// of its own for a login of its own: Convoy's standard grants are sent only by its `Login`.
private struct DemoPasswordGrant: OAuthGrant {
  var username: String
  var password: String
  var grantType: String { "password" }
  var parameters: [String: String] { ["username": username, "password": password] }
  var asksForScopes: Bool { true }
}
