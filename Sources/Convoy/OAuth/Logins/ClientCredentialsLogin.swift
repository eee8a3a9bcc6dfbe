/// ``Login/clientCredentials``: the client credentials grant (RFC 6749 §4.4) for the app
/// itself. There is no refresh token (§4.4.3): the session is marked as the client's, so it is
/// renewed by asking for the grant again.
struct ClientCredentialsLogin: Job {
  /// Token endpoint (discovered if needed) → client credentials grant → client session.
  func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    connection.tokenOperation(for: .clientCredentials)
      .map { [clock = connection.configuration.clock] in
        Session(accessToken: $0.accessToken.reissued(at: clock.now), isClientSession: true)
      }
  }
}
