import Foundation

extension ServerConnection {
  /// Runs `login` and installs the session it yields; cancelling the task cancels the login.
  ///
  /// ```swift
  /// try await connection.login(with: .password(username: "ada@example.com", password: password))
  /// ```
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  /// - Throws: ``AuthorizationError`` when the server refuses (``ErrorCategory/wrongCredentials``
  ///   for a wrong password), a ``ServerConnectionError`` when it cannot be reached,
  ///   ``AuthenticationSetupError`` when no client is configured, or ``SessionStoreError`` when
  ///   the session cannot be saved.
  @discardableResult
  public func login(with login: Login) async throws -> Session {
    // Not folded into the generic form: a closure passed to `.deviceCode` through a generic
    // parameter is not inferred `@Sendable`, so `login(with: .deviceCode { … })` needs this one.
    try await install(run(login))
  }

  /// Runs a login job of your own, one whose output is a ``Session``, and installs the session
  /// it yields; cancelling the task cancels the job.
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  /// - Throws: The job's error, or ``SessionStoreError`` when the session cannot be saved.
  @discardableResult
  public func login<SomeLogin: Job>(with job: SomeLogin) async throws -> Session
  where SomeLogin.Output == Session {
    try await install(run(job))
  }

  private func install(_ session: Session) throws -> Session {
    try login(session: session)
    return session
  }

  /// An operation that asks the configured client's token endpoint for `grant`: the endpoint is
  /// discovered first when it is not configured.
  func tokenOperation(
    for grant: some OAuthGrant
  ) -> ResultOperation<AccessTokenRequest.Response> {
    let server = authorizationServer
    let pipeline = self.pipeline
    return TaskResultOperation { () async throws -> AccessTokenRequest in
      let client = try server.requireClient()
      let endpoint = try await server.tokenEndpoint(through: pipeline)
      return AccessTokenRequest(grant: grant, client: client, endpoint: endpoint)
    }
    .then { [self] request in operation(for: request) }
  }
}
