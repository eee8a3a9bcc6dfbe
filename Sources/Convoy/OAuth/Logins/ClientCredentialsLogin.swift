/// Gets a session for the app itself, not for a person: the client credentials grant
/// (RFC 6749 §4.4), for service-to-service calls.
///
/// The configured ``OAuthClient`` must be confidential (have a secret). There is no refresh token
/// (§4.4.3): the session is renewed by asking for the grant again.
///
/// ```swift
/// try await connection.loginAsClient()
/// ```
public struct ClientCredentialsLogin: Job {
  /// Creates the job.
  public init() {}

  /// Token endpoint (discovered if needed) → client credentials grant → client session.
  public func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    connection.tokenOperation(for: .clientCredentials)
      .map { [clock = connection.configuration.clock] in
        Session(accessToken: $0.accessToken.reissued(at: clock.now), isClientSession: true)
      }
  }
}

extension ServerConnection {
  /// Runs a ``ClientCredentialsLogin`` and installs the client session it yields.
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  @discardableResult
  public func loginAsClient() async throws -> Session {
    try await login(with: ClientCredentialsLogin())
  }
}
