import Foundation

extension ServerConnection {
  /// Runs a login job (``PasswordLogin``, ``ClientCredentialsLogin``,
  /// ``AuthorizationCodeLogin``, ``DeviceLogin`` or one of your own) and installs the session it
  /// yields; cancelling the task cancels the job.
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  /// - Throws: The job's error, or ``SessionStoreError`` when the session cannot be saved.
  @discardableResult
  public func login<Login: Job>(with job: Login) async throws -> Session
  where Login.Output == Session {
    let session = try await run(job)
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
