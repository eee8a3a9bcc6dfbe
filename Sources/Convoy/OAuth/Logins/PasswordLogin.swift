/// ``Login/password(username:password:)``: the resource owner password credentials grant
/// (RFC 6749 §4.3) with the configured ``OAuthClient``.
///
/// The password never appears in the job's `description` or mirror.
struct PasswordLogin: Job {
  var username: String
  var password: String

  /// Token endpoint (discovered if needed) → password grant → session.
  func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    connection.tokenOperation(for: .password(username: username, password: password))
      .map { [clock = connection.configuration.clock] in
        Session(accessToken: $0.accessToken.reissued(at: clock.now))
      }
  }
}

extension PasswordLogin: CustomStringConvertible, CustomReflectable {
  /// `PasswordLogin(username: a@b.c, password: <redacted>)`.
  var description: String {
    "PasswordLogin(username: \(username), password: \(SecretRedactor.mask))"
  }
  /// A mirror without the password.
  var customMirror: Mirror {
    Mirror(self, children: ["username": username, "password": SecretRedactor.mask])
  }
}
