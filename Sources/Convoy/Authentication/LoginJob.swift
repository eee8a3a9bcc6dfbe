/// Logs a user in: fetches the app's client secret with the user's email and password, then
/// exchanges both for an access token with the OAuth2 password grant (RFC 6749 §4.3), and yields
/// the ``Session``.
///
/// ```swift
/// let token = connection.run(LoginJob(email: email, password: password)) { result in
///   if case .success(let session) = result { try? connection.login(session: session) }
/// }
/// ```
///
/// Or in one step, installing the session: `try await connection.login(email:password:)`.
/// The password never appears in the job's `description` or mirror.
public struct LoginJob: Job {
  /// The user's email.
  public var email: String
  /// The user's password.
  public var password: String

  /// Creates the job.
  public init(email: String, password: String) {
    self.email = email
    self.password = password
  }

  /// Client secret → access token → session, using the connection's endpoints.
  public func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    let endpoints = connection.configuration.authentication
    let (email, password) = (email, password)
    return connection.operation(
      for: ClientSecretRequest(email: email, password: password, configuration: endpoints)
    )
    .then { client in
      connection.operation(
        for: AccessTokenRequest(
          grant: .password(username: email, password: password),
          clientSecret: client.clientSecret, configuration: endpoints)
      )
      .map { Session(clientSecret: client.clientSecret, accessToken: $0.accessToken) }
    }
  }
}

extension LoginJob: CustomStringConvertible, CustomReflectable {
  /// `LoginJob(email: a@b.c, password: <redacted>)`.
  public var description: String { "LoginJob(email: \(email), password: \(SecretRedactor.mask))" }
  /// A mirror without the password.
  public var customMirror: Mirror {
    Mirror(self, children: ["email": email, "password": SecretRedactor.mask])
  }
}

extension ServerConnection {
  /// Runs a ``LoginJob`` and installs the session it yields; cancelling the task cancels it.
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  /// - Throws: The job's error, or ``SessionStoreError`` when the session cannot be saved.
  @discardableResult
  public func login(email: String, password: String) async throws -> Session {
    let session = try await run(LoginJob(email: email, password: password))
    try login(session: session)
    return session
  }
}
