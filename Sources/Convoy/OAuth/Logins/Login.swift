import Foundation

/// A login: a job that gets a ``Session`` with one of OAuth2's standard flows, from the client
/// and endpoints the connection's ``AuthenticationConfiguration`` names (discovered when they are
/// not configured).
///
/// ``ServerConnection/login(with:)-(Login)`` runs one and installs the session it yields:
///
/// ```swift
/// try await connection.login(with: .deviceCode { authorization in
///   print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")
/// })
/// ```
///
/// A login is a ``Job`` like any other, so it also runs with
/// ``ServerConnection/run(_:completionQueue:progress:completion:)-(J,_,_,_)`` and cancels
/// through its ``JobToken``. A flow of your own is a job of your own whose output is a
/// ``Session``; ``ServerConnection/login(with:)-(SomeLogin)`` takes it too.
///
/// A login's `description` and mirror name its flow and never its password.
public struct Login: Job {
  let flow: Flow

  /// The flows, one type each: each knows its grant and its steps.
  enum Flow: Sendable {
    case password(PasswordLogin)
    case clientCredentials(ClientCredentialsLogin)
    case authorizationCode(AuthorizationCodeLogin)
    case deviceCode(DeviceLogin)
  }

  /// Runs the flow's steps and yields its session.
  public func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    switch flow {
    case .password(let login): login.makeOperation(on: connection)
    case .clientCredentials(let login): login.makeOperation(on: connection)
    case .authorizationCode(let login): login.makeOperation(on: connection)
    case .deviceCode(let login): login.makeOperation(on: connection)
    }
  }

  /// The flow's own job, whose deadline this login keeps. (`Job` has no primary associated
  /// type, so the operation above is built through the cases instead.)
  private var job: any Job {
    switch flow {
    case .password(let login): login
    case .clientCredentials(let login): login
    case .authorizationCode(let login): login
    case .deviceCode(let login): login
    }
  }

  /// The flow's timeout: the device code login's, if it was given one; no other flow has one.
  public var timeout: TimeInterval? { job.timeout }

  /// The flow's timeout error: for the device code login, a refusal worded as not approved in
  /// time (``ErrorCategory/loginIncomplete``).
  public var timeoutError: any Error { job.timeoutError }
}

extension Job where Self == Login {
  /// Logs a person in through their browser: the authorization code grant (RFC 6749 §4.1) with
  /// PKCE S256 (RFC 7636) and a random `state`, what RFC 9700 recommends for apps and tools.
  ///
  /// `userAgent` shows the authorization page and brings the redirect back; the login checks
  /// `state`, then exchanges the code with the verifier.
  ///
  /// ```swift
  /// let listener = try LoopbackRedirectListener(timeout: 300) { url in
  ///   print("Open \(url) to log in")
  /// }
  /// try await connection.login(with: .authorizationCode(through: listener))
  /// ```
  ///
  /// - Parameters:
  ///   - userAgent: Shows the authorization page and returns the redirect.
  ///   - additionalParameters: Extra parameters for the authorization URL, e.g.
  ///     `["prompt": "login"]`.
  public static func authorizationCode(
    through userAgent: any AuthorizationUserAgent,
    additionalParameters: [String: String] = [:]
  ) -> Login {
    Login(
      flow: .authorizationCode(
        AuthorizationCodeLogin(userAgent: userAgent, additionalParameters: additionalParameters)))
  }

  /// Logs a person in on another device: the device authorization grant (RFC 8628), what
  /// command-line tools use (`gh auth login` does).
  ///
  /// The login asks for a user code, hands it to `showing` once, then polls the token endpoint
  /// at the server's interval: `authorization_pending` waits on, `slow_down` adds 5 seconds to
  /// the interval, `access_denied` and `expired_token` end it with an ``AuthorizationError``.
  /// Polling never outlives the codes' expiry or `timeout`; either ends the login as not
  /// approved in time (`expired_token`, ``ErrorCategory/loginIncomplete``). Cancelling the job's
  /// token (or the task) stops it at once.
  ///
  /// - Parameters:
  ///   - timeout: The longest the whole login may take, in seconds; `nil` waits until the codes
  ///     expire.
  ///   - showing: Shows the person the user code and where to enter it; called once, before
  ///     polling starts.
  public static func deviceCode(
    timeout: TimeInterval? = nil,
    showing: @escaping @Sendable (DeviceAuthorization) -> Void
  ) -> Login {
    Login(flow: .deviceCode(DeviceLogin(timeout: timeout, showing: showing)))
  }

  /// Gets a session for the app itself, not for a person: the client credentials grant
  /// (RFC 6749 §4.4), for service-to-service calls.
  ///
  /// The configured ``OAuthClient`` must be confidential (have a secret). There is no refresh
  /// token (§4.4.3): the session is renewed by asking for the grant again.
  public static var clientCredentials: Login {
    Login(flow: .clientCredentials(ClientCredentialsLogin()))
  }

  /// Logs a user in with their username (often an email) and password: the resource owner
  /// password credentials grant (RFC 6749 §4.3).
  ///
  /// **Legacy**: RFC 9700 §2.4 says not to use this grant, since the app sees the password. Use
  /// ``authorizationCode(through:additionalParameters:)`` in apps and tools, or
  /// ``deviceCode(timeout:showing:)``; this one is kept for servers and tests that still need
  /// it.
  public static func password(username: String, password: String) -> Login {
    Login(flow: .password(PasswordLogin(username: username, password: password)))
  }
}

extension Login: CustomStringConvertible, CustomReflectable {
  /// The flow, e.g. `Login.password(username: a@b.c, password: <redacted>)`.
  public var description: String {
    switch flow {
    case .password(let login):
      "Login.password(username: \(login.username), password: \(SecretRedactor.mask))"
    case .clientCredentials: "Login.clientCredentials"
    case .authorizationCode: "Login.authorizationCode"
    case .deviceCode: "Login.deviceCode"
    }
  }

  /// A mirror that shows the description only, so `dump` never prints a password.
  public var customMirror: Mirror {
    Mirror(self, children: ["flow": description])
  }
}
