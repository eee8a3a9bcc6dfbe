import Foundation

/// ``Login/deviceCode(timeout:showing:)``: the device authorization grant (RFC 8628). It polls
/// the token endpoint at the server's interval, slower after each `slow_down`, never faster than
/// ``minimumInterval`` and never past the codes' expiry.
struct DeviceLogin: Job {
  /// Shows the person what to do; called once, before polling starts.
  var showing: @Sendable (DeviceAuthorization) -> Void
  /// The longest the whole login may take, in seconds; `nil` waits until the codes expire.
  var timeout: TimeInterval?

  /// The person did not approve within ``timeout``: an `expired_token` refusal, as when the
  /// codes expire, worded ``ErrorCategory/loginIncomplete`` rather than as a slow server.
  var timeoutError: any Error {
    AuthorizationError(
      code: .expiredToken,
      serverDescription: "not approved within the login's timeout of \(timeout ?? 0) s",
      context: ErrorContext(method: .post))
  }
  /// How much longer to wait after each `slow_down` (RFC 8628 §3.5: 5 seconds).
  var slowDownIncrement: TimeInterval = 5
  /// The shortest wait between polls, whatever the server says: a server answering
  /// `interval: 0` must not turn polling into a flood.
  var minimumInterval: TimeInterval = 1

  init(
    timeout: TimeInterval? = nil, showing: @escaping @Sendable (DeviceAuthorization) -> Void
  ) {
    self.timeout = timeout
    self.showing = showing
  }

  /// Endpoints (discovered if needed) → codes → `showing` → polling → session.
  func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    let server = connection.authorizationServer
    let pipeline = connection.pipeline
    let clock = connection.configuration.clock
    let (showing, increment, floor) = (showing, slowDownIncrement, minimumInterval)
    return TaskResultOperation { () async throws -> Session in
      let client = try server.requireClient()
      let endpoints = try await server.endpoints(through: pipeline)
      guard let deviceEndpoint = endpoints.deviceAuthorization else {
        throw AuthenticationSetupError.missingEndpoint("device_authorization_endpoint")
      }
      guard let tokenEndpoint = endpoints.token else {
        throw AuthenticationSetupError.missingEndpoint("token_endpoint")
      }
      let codes = try await pipeline.run(
        DeviceAuthorizationRequest(client: client, endpoint: deviceEndpoint))
      // The codes' expiry was dated when they were decoded, in real time; the polling counts the
      // same lifetime on the connection's clock, so a test clock decides when they expire.
      let expiresAt = clock.now.addingTimeInterval(
        codes.authorization.expiresAt.timeIntervalSinceNow)
      showing(codes.authorization)
      let poll = AccessTokenRequest(
        grant: .deviceCode(codes.deviceCode), client: client, endpoint: tokenEndpoint)
      var interval = max(codes.authorization.interval, floor)
      while true {
        guard clock.now.addingTimeInterval(interval) < expiresAt else {
          throw AuthorizationError(
            code: .expiredToken, serverDescription: "the user code expired before approval",
            context: ErrorContext(method: .post))
        }
        try await clock.sleep(for: interval)
        do {
          let token = try await pipeline.run(poll).accessToken
          return Session(accessToken: token.reissued(at: clock.now))
        } catch let error as AuthorizationError where error.code == .authorizationPending {
          continue
        } catch let error as AuthorizationError where error.code == .slowDown {
          interval += increment
        }
      }
    }
  }
}
