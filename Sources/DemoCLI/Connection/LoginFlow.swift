import Convoy
import ConvoyTesting

/// Runs a login job through the runner, so Ctrl-C cancels it through its `JobToken`, and shows
/// the job's progress on the progress line.
enum LoginFlow {
  /// Email and password: the demo API's two-step `SimulatedPlacesAPI.LoginJob`, or the password
  /// grant (`Login.password`) on an environment that describes a standard OAuth2 server.
  static func logIn(
    email: String, password: String, on connection: ServerConnection, standard: Bool,
    runner: JobRunner, progress: ProgressLine
  ) async throws -> Session {
    if standard {
      return try await run(
        Login.password(username: email, password: password), on: connection, runner: runner,
        progress: progress)
    }
    return try await run(
      SimulatedPlacesAPI.LoginJob(email: email, password: password), on: connection,
      runner: runner, progress: progress)
  }

  /// Runs `job` and returns the session it yields.
  static func run<SomeLogin: Job>(
    _ job: SomeLogin, on connection: ServerConnection, runner: JobRunner, progress: ProgressLine
  ) async throws -> Session where SomeLogin.Output == Session {
    try await runner.run { queue, done in
      connection.run(
        job, completionQueue: queue,
        progress: { progress.update(completed: $0.completedUnitCount, total: $0.totalUnitCount) },
        completion: done)
    }
  }
}
