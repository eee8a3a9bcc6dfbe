import Foundation

extension ServerConnection {
  /// Revokes the session's tokens at the server when a revocation endpoint is known (RFC 7009:
  /// the refresh token, then the access token), then forgets the session and removes it from the
  /// session store — even when revocation failed, which observers hear as a notice.
  ///
  /// - Returns: What happened at the server.
  /// - Throws: ``SessionStoreError`` when the saved session cannot be removed; the session is
  ///   forgotten in memory all the same.
  @discardableResult
  public func logout() async throws(SessionStoreError) -> RevocationOutcome {
    let outcome: RevocationOutcome
    if let session {
      outcome = await revoke(session)
    } else {
      outcome = .notAttempted
    }
    if case .failed(let error) = outcome {
      EventEmitter.notice(
        to: observers, "token revocation failed; the session is forgotten locally: \(error)")
    }
    try authentication.clear()
    return outcome
  }

  private func revoke(_ session: Session) async -> RevocationOutcome {
    guard let configured = authorizationServer.client else { return .notAttempted }
    let client = session.clientSecret.map(configured.presenting) ?? configured
    let pipeline = self.pipeline
    do {
      guard let endpoint = try await authorizationServer.endpoints(through: pipeline).revocation
      else { return .notAttempted }
      var tokens: [(String, TokenRevocationRequest.Kind)] = []
      if let refresh = session.accessToken.refreshToken { tokens.append((refresh, .refreshToken)) }
      tokens.append((session.accessToken.value, .accessToken))
      for (token, kind) in tokens {
        _ = try await pipeline.run(
          TokenRevocationRequest(token: token, kind: kind, client: client, endpoint: endpoint))
      }
      return .revoked
    } catch {
      return .failed(error)
    }
  }
}

extension ServerConnection {
  /// Ends the session as ``logout()`` does (revoking its tokens where the server can) and, when
  /// `clearingCookies` is `true`, forgets every cookie in ``cookieJar`` too: a server's cookie
  /// session is a login of its own.
  ///
  /// The cookies go first, so they are gone even when the saved session cannot be removed.
  ///
  /// - Returns: What the server said to the revocation.
  /// - Throws: ``SessionStoreError`` when the saved session cannot be removed.
  @discardableResult
  public func logout(clearingCookies: Bool) async throws(SessionStoreError) -> RevocationOutcome {
    if clearingCookies { cookieJar?.removeAll() }
    return try await logout()
  }
}
