import Convoy

/// Logging in: the client secret for the user's email and password, then the password grant.
///
/// Each request is started through the runner, so Ctrl-C cancels whichever is in flight through
/// its `JobToken`, and the progress line counts the steps. Once Convoy has a `LoginJob`, this
/// becomes one `connection.run(_:completionQueue:progress:completion:)` through the same runner,
/// with the job's progress; nothing outside this file changes.
enum LoginFlow {
  static func logIn(
    email: String, password: String, on connection: ServerConnection, runner: JobRunner,
    progress: ProgressLine
  ) async throws -> Session {
    let authentication = connection.configuration.authentication
    progress.update(completed: 0, total: 2)
    let client = try await runner.run { queue, done in
      connection.execute(
        ClientSecretRequest(email: email, password: password, configuration: authentication),
        completionQueue: queue, completion: done)
    }
    progress.update(completed: 1, total: 2)
    let token = try await runner.run { queue, done in
      connection.execute(
        AccessTokenRequest(
          grant: .password(username: email, password: password),
          clientSecret: client.clientSecret, configuration: authentication),
        completionQueue: queue, completion: done)
    }
    progress.update(completed: 2, total: 2)
    return Session(clientSecret: client.clientSecret, accessToken: token.accessToken)
  }
}
