import Convoy
import ConvoyTesting
import Foundation
import Testing

private struct Ping: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "ping" }
}

/// Cancelling a task holds the task's own lock while its cancellation handlers run, and a
/// transport's completion resumes the task's continuation, which takes that same lock. A stub
/// that ran its completion under a lock its cancellation also takes deadlocked the two (seen
/// once under ThreadSanitizer); this races them many times.
@Suite(.timeLimit(.minutes(1)))
struct StubTransportCancellationTests {
  @Test func cancellingWhileTheAnswerIsDeliveredNeverDeadlocks() async throws {
    let connection = ServerConnection(
      configuration: .local(port: 9), transport: StubTransport { _ in .status(200) })
    for round in 0..<2_000 {
      let call = Task { try await connection.execute(Ping()) }
      // Cancellations spread over the moments around delivery, by letting other work run a
      // varying number of times first: no clock involved.
      for _ in 0..<(round % 4 == 0 ? 0 : (round % 7) * 8) { await Task.yield() }
      call.cancel()
      guard let result = await result(of: call, within: Wait.bound) else {
        Issue.record("round \(round): the call neither answered nor ended after cancelling")
        return
      }
      if case .failure(let error) = result {
        #expect((error as? ServerConnectionError) == .cancelled)
      }
    }
  }

  /// The task's result, or `nil` when it has not ended after `seconds`: a deadlock fails the test
  /// instead of hanging the run.
  private func result<Value: Sendable>(
    of task: Task<Value, any Error>, within seconds: TimeInterval
  ) async -> Result<Value, any Error>? {
    let outcome = Outcome<Result<Value, any Error>>()
    Task { outcome.record(await task.result) }
    return await outcome.first(within: seconds)
  }
}
