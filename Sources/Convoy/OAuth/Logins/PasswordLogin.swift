/// Logs a user in with their username (often an email) and password: the resource owner
/// password credentials grant (RFC 6749 §4.3) with the configured ``OAuthClient``.
///
/// **Legacy**: RFC 9700 §2.4 says not to use this grant, since the app sees the password. Use
/// ``AuthorizationCodeLogin`` in apps and tools, or ``DeviceLogin``; this one is kept
/// for servers and tests that still need it.
///
/// ```swift
/// try await connection.login(username: "ada@example.com", password: password)
/// ```
///
/// The password never appears in the job's `description` or mirror.
public struct PasswordLogin: Job {
  /// The user's name or email.
  public var username: String
  /// The user's password.
  public var password: String

  /// Creates the job.
  public init(username: String, password: String) {
    self.username = username
    self.password = password
  }

  /// Token endpoint (discovered if needed) → password grant → session.
  public func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    connection.tokenOperation(for: .password(username: username, password: password))
      .map { [clock = connection.configuration.clock] in
        Session(accessToken: $0.accessToken.reissued(at: clock.now))
      }
  }
}

extension PasswordLogin: CustomStringConvertible, CustomReflectable {
  /// `PasswordLogin(username: a@b.c, password: <redacted>)`.
  public var description: String {
    "PasswordLogin(username: \(username), password: \(SecretRedactor.mask))"
  }
  /// A mirror without the password.
  public var customMirror: Mirror {
    Mirror(self, children: ["username": username, "password": SecretRedactor.mask])
  }
}

extension ServerConnection {
  /// Runs a ``PasswordLogin`` (legacy) and installs the session it yields.
  ///
  /// - Returns: The new session, already installed and saved in the session store.
  /// - Throws: ``AuthorizationError`` when the server refuses (``ErrorCategory/wrongCredentials``
  ///   for a wrong password), a ``ServerConnectionError`` when it cannot be reached,
  ///   ``AuthenticationSetupError`` when no client is configured, or ``SessionStoreError``.
  @discardableResult
  public func login(username: String, password: String) async throws -> Session {
    try await login(with: PasswordLogin(username: username, password: password))
  }
}
