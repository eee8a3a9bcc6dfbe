import Foundation

/// ``Login/authorizationCode(through:additionalParameters:)``: the authorization code grant
/// (RFC 6749 §4.1) with PKCE S256 (RFC 7636) and a random `state`.
struct AuthorizationCodeLogin: Job {
  /// Shows the authorization page and returns the redirect.
  var userAgent: any AuthorizationUserAgent
  /// Extra parameters for the authorization URL, e.g. `["prompt": "login"]`.
  var additionalParameters: [String: String]

  /// Endpoints (discovered if needed) → the person in the browser → state checked → code
  /// exchanged → session.
  func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    let server = connection.authorizationServer
    let pipeline = connection.pipeline
    let configuration = connection.configuration
    let (userAgent, additionalParameters) = (userAgent, additionalParameters)
    return TaskResultOperation { () async throws -> AccessTokenRequest in
      let client = try server.requireClient()
      let endpoints = try await server.endpoints(through: pipeline)
      guard let authorization = endpoints.authorization else {
        throw AuthenticationSetupError.missingEndpoint("authorization_endpoint")
      }
      guard let token = endpoints.token else {
        throw AuthenticationSetupError.missingEndpoint("token_endpoint")
      }
      let attempt = AuthorizationCodeAttempt(
        client: client, authorizationEndpoint: try configuration.url(path: authorization),
        redirectURI: userAgent.redirectURI, additionalParameters: additionalParameters)
      let callback = try await userAgent.authorize(at: attempt.authorizationURL)
      let code = try attempt.code(from: callback)
      return AccessTokenRequest(
        grant: .authorizationCode(
          code: code, redirectURI: attempt.redirectURI.absoluteString,
          codeVerifier: attempt.pkce.verifier),
        client: client, endpoint: token)
    }
    .then { request in connection.operation(for: request) }
    .map { Session(accessToken: $0.accessToken.reissued(at: configuration.clock.now)) }
  }
}
