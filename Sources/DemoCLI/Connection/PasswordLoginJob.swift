import Convoy

/// Logging in as one job: the client secret for the user's email and password, then the
/// password grant, producing the session.
///
/// As a job it runs under one `JobToken`, so Ctrl-C cancels whichever request is in flight, and
/// it reports progress per request. democli keeps its own until Convoy ships a `LoginJob`.
struct PasswordLoginJob: Job {
  var email: String
  var password: String

  func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
    let authentication = connection.configuration.authentication
    let grant = AccessTokenRequest.Grant.password(username: email, password: password)
    return connection.operation(
      for: ClientSecretRequest(email: email, password: password, configuration: authentication)
    )
    .then { client in
      connection.operation(
        for: AccessTokenRequest(
          grant: grant, clientSecret: client.clientSecret, configuration: authentication)
      )
      .map { token in Session(clientSecret: client.clientSecret, accessToken: token.accessToken) }
    }
  }
}
