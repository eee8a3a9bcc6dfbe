import Foundation

/// Logs a person in through their browser: the authorization code grant (RFC 6749 §4.1) with
/// PKCE S256 (RFC 7636) and a random `state`, what RFC 9700 recommends for apps and tools.
///
/// The ``AuthorizationUserAgent`` shows the page and brings the redirect back; the job checks
/// `state`, then exchanges the code with the verifier.
///
/// ```swift
/// let listener = try LoopbackRedirectListener(timeout: 300) { url in
///   print("Open \(url) to log in")
/// }
/// try await connection.login(through: listener)
/// ```
public struct AuthorizationCodeLogin: Job {
  /// Shows the authorization page and returns the redirect.
  public var userAgent: any AuthorizationUserAgent
  /// Extra parameters for the authorization URL, e.g. `["prompt": "login"]`.
  public var additionalParameters: [String: String]

  /// Creates the job.
  public init(
    userAgent: any AuthorizationUserAgent, additionalParameters: [String: String] = [:]
  ) {
    self.userAgent = userAgent
    self.additionalParameters = additionalParameters
  }

  /// Endpoints (discovered if needed) → the person in the browser → state checked → code
  /// exchanged → session.
  public func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
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

extension ServerConnection {
  /// Runs an ``AuthorizationCodeLogin`` through `userAgent` and installs the session it yields.
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  @discardableResult
  public func login(through userAgent: any AuthorizationUserAgent) async throws -> Session {
    try await login(with: AuthorizationCodeLogin(userAgent: userAgent))
  }
}
