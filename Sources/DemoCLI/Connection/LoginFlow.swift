import Convoy
import ConvoyTesting

/// Runs the demo API's `LoginJob` through the runner, so Ctrl-C cancels it through its `JobToken`, and
/// shows the job's progress on the progress line.
enum LoginFlow {
  static func logIn(
    email: String, password: String, on connection: ServerConnection, runner: JobRunner,
    progress: ProgressLine
  ) async throws -> Session {
    try await runner.run { queue, done in
      connection.run(
        SimulatedPlacesAPI.LoginJob(email: email, password: password), completionQueue: queue,
        progress: { progress.update(completed: $0.completedUnitCount, total: $0.totalUnitCount) },
        completion: done)
    }
  }
}
