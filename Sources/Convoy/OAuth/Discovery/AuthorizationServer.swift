import Foundation

/// A connection's view of its authorization server: the configured client, its endpoints
/// (discovered once, then kept), and the grants that renew a session.
///
/// It holds no reference to the connection, so the connection can own it without a cycle; every
/// call goes through a pipeline the caller hands in.
final class AuthorizationServer: Sendable {
  let client: OAuthClient?
  private let discovered = Locked<OAuthEndpoints?>(nil)

  init(client: OAuthClient?) {
    self.client = client
  }

  /// The configured client, or ``AuthenticationSetupError/noClient``.
  func requireClient() throws(AuthenticationSetupError) -> OAuthClient {
    guard let client else { throw .noClient }
    return client
  }

  /// The client's endpoints, completed by discovery the first time one is missing.
  func endpoints(through pipeline: CallPipeline) async throws -> OAuthEndpoints {
    let client = try requireClient()
    guard let issuer = client.endpoints.issuer, !client.endpoints.isComplete else {
      return client.endpoints
    }
    if let known = discovered.current { return known }
    let metadata = try await Self.discover(issuer, through: pipeline)
    let endpoints = client.endpoints.completed(by: metadata)
    discovered.withLock { $0 = endpoints }
    return endpoints
  }

  private static func discover(
    _ issuer: URL, through pipeline: CallPipeline
  ) async throws -> AuthorizationServerMetadata {
    var lastFailure: (any Error)?
    for location in AuthorizationServerMetadata.locations(of: issuer) {
      do {
        let metadata = try await pipeline.run(
          AuthorizationServerMetadataRequest(location: location)
        )
        .value
        guard metadata.isIssued(by: issuer) else {
          throw AuthenticationSetupError.discoveryFailed(
            "the metadata at \(location.absoluteString) names another issuer")
        }
        return metadata
      } catch let error as ServerConnectionError where (400..<500).contains(error.statusCode ?? 0) {
        // Not at this location: a server speaks RFC 8414 or OpenID Connect, rarely both.
        lastFailure = error
      }
    }
    throw AuthenticationSetupError.discoveryFailed(
      "no metadata for \(issuer.absoluteString)" + (lastFailure.map { " (\($0))" } ?? ""))
  }

  /// The token endpoint, or ``AuthenticationSetupError/missingEndpoint(_:)``.
  func tokenEndpoint(through pipeline: CallPipeline) async throws -> String {
    guard let token = try await endpoints(through: pipeline).token else {
      throw AuthenticationSetupError.missingEndpoint("token_endpoint")
    }
    return token
  }

  /// A renewed `session`: the refresh-token grant when it holds a refresh token (RFC 6749 §6),
  /// the client credentials grant again for a client's own session (§4.4.3 issues no refresh
  /// token), otherwise a refusal that ends the session.
  ///
  /// The whole renewal — discovery, the grant and its one repeat — ends by one deadline, the
  /// configuration's `timeout` from its start: it is shared by calls with deadlines of their
  /// own, each of which stops waiting at its deadline while the renewal goes on for the rest.
  func renew(_ session: Session, through renewal: CallPipeline) async throws -> Session {
    var pipeline = renewal
    pipeline.deadline = pipeline.configuration.clock.now.addingTimeInterval(
      pipeline.configuration.timeout)
    guard let configured = client else { throw SessionController.Refusal.expired }
    let client = session.clientSecret.map(configured.presenting) ?? configured
    let endpoint = try await tokenEndpoint(through: pipeline)
    if let refreshToken = session.accessToken.refreshToken {
      var renewed = try await Self.refresh(
        AccessTokenRequest(grant: .refreshToken(refreshToken), client: client, endpoint: endpoint),
        through: pipeline
      ).accessToken.reissued(at: pipeline.configuration.clock.now)
      // RFC 6749 §6: a server may keep the refresh token and not send it again.
      renewed.refreshToken = renewed.refreshToken ?? refreshToken
      var next = session
      next.accessToken = renewed
      return next
    }
    guard session.isClientSession else { throw SessionController.Refusal.expired }
    var next = session
    next.accessToken = try await pipeline.run(
      AccessTokenRequest(grant: .clientCredentials, client: client, endpoint: endpoint)
    ).accessToken.reissued(at: pipeline.configuration.clock.now)
    return next
  }

  /// Sends a refresh grant; when its answer was lost after the request may have reached the
  /// server, asks once more with the same refresh token, if the renewal's deadline leaves time
  /// (a grant that timed out has spent it: the next call that needs a token renews anew).
  ///
  /// A server that rotates refresh tokens may have used the old one up already. Asking again
  /// settles it within the same call: a server that still accepts the old token for a while
  /// (a reuse grace period) answers with new tokens and the session goes on; one that does not
  /// answers `invalid_grant`, which ends the session as `sessionExpired` — never a hang or a
  /// loop, since there is exactly one more attempt.
  private static func refresh(
    _ request: AccessTokenRequest, through pipeline: CallPipeline
  ) async throws -> AccessTokenRequest.Response {
    do {
      return try await pipeline.run(request)
    } catch let error as ServerConnectionError where mayHaveReachedTheServer(error) {
      let clock = pipeline.configuration.clock
      if let deadline = pipeline.deadline, clock.now >= deadline { throw error }
      return try await pipeline.run(request)
    }
  }

  /// Whether a failure leaves open that the request reached the server: the connection dropped
  /// or the answer took too long, as opposed to a host that could not be reached at all.
  static func mayHaveReachedTheServer(_ error: ServerConnectionError) -> Bool {
    switch error {
    case .timedOut: true
    case .transportFailed(let failure, _):
      [.networkConnectionLost, .timedOut, .badServerResponse].contains(failure.kind)
    default: false
    }
  }
}
