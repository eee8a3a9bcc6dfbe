import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct JobCancellationTests {
  /// A connection whose single network slot is held by a long request, so that whatever is
  /// queued next is known not to have started.
  private func blockedConnection() async -> (ServerConnection, StubTransport, JobToken) {
    let (connection, stub) = API.connection(networkLimit: 1)
    let blocker = connection.execute(
      API.NumberRequest(value: 0, delay: 30), completionQueue: testQueue
    ) { _ in }
    _ = await eventually { stub.requests.count == 1 }
    return (connection, stub, blocker)
  }

  @Test func cancellingBeforeStartNeverSendsTheRequestAndCompletesOnce() async {
    let (connection, stub, blocker) = await blockedConnection()
    defer { blocker.cancel() }
    let outcome = Outcome<Result<HomeScreen, any Error>>()
    let token = connection.run(HomeScreenJob(), completionQueue: testQueue) { outcome.record($0) }
    token.cancel()
    let result = await outcome.first()
    #expect(result?.failureValue?.isCancellation == true)
    blocker.cancel()
    #expect(await connection.settled())
    #expect(stub.requests.count == 1)
    #expect(outcome.count == 1)
  }

  @Test func cancellingASingleQueuedCallCompletesAtOnceWithoutWaitingForTheQueue() async {
    let (connection, stub, blocker) = await blockedConnection()
    defer { blocker.cancel() }
    let outcome = Outcome<Result<API.Number, any Error>>()
    let token = connection.execute(API.NumberRequest(value: 1), completionQueue: testQueue) {
      outcome.record($0.map(\.value))
    }
    token.cancel()
    // The blocker still holds the only slot for 30 s; the cancelled call does not wait for it.
    #expect(await outcome.first()?.failureValue?.isCancellation == true)
    #expect(stub.requests.count == 1)
  }

  @Test func cancellingMidFlightCancelsTheTransferAndCompletesOnce() async {
    let (connection, stub) = API.connection()
    let outcome = Outcome<Result<[API.Number], any Error>>()
    let job = OperationJob { connection in
      GroupOperation(
        (0..<4).map { connection.operation(for: API.NumberRequest(value: $0, delay: 30)) }
      )
      .map { $0.map(\.value) }
    }
    let token = connection.run(job, completionQueue: testQueue) { outcome.record($0) }
    #expect(await eventually { stub.requests.count == 4 })
    token.cancel()
    #expect(await outcome.first()?.failureValue?.isCancellation == true)
    #expect(await connection.settled())
    #expect(outcome.count == 1)
  }

  @Test func cancellingTwiceAfterCompletionOrFromTheCompletionIsHarmless() async throws {
    let (connection, _) = API.connection()
    let outcome = Outcome<Result<API.Session, any Error>>()
    let tokenBox = Recorder<JobToken>()
    let token = connection.run(ThreeStepLoginJob(), completionQueue: testQueue) { result in
      tokenBox.all.first?.cancel()
      tokenBox.all.first?.cancel()
      outcome.record(result)
    }
    tokenBox.append(token)
    let result = await outcome.first()
    token.cancel()
    connection.cancel(token)
    #expect(await connection.settled())
    #expect(outcome.count == 1)
    #expect(result?.successValue != nil || result?.failureValue?.isCancellation == true)
  }

  @Test func cancellingAfterCompletionKeepsTheResult() async throws {
    let (connection, _) = API.connection()
    let outcome = Outcome<Result<API.Session, any Error>>()
    let token = connection.run(ThreeStepLoginJob(), completionQueue: testQueue) {
      outcome.record($0)
    }
    let result = await outcome.first()
    token.cancel()
    token.cancel()
    #expect(await connection.settled())
    #expect(result?.successValue?.user == "ada")
    #expect(outcome.count == 1)
  }

  @Test func cancellingTheCallingTaskCancelsAnAsyncRun() async {
    let (connection, stub) = API.connection()
    let task = Task {
      try await connection.run(
        OperationJob { $0.operation(for: API.NumberRequest(value: 1, delay: 30)) })
    }
    #expect(await eventually { stub.requests.count == 1 })
    task.cancel()
    let outcome = Outcome<Result<API.NumberRequest.Response, any Error>>()
    Task { outcome.record(await task.result) }
    #expect(await outcome.first()?.failureValue?.isCancellation == true)
  }

  @Test func aJobDeadlineCancelsTheJobAndReportsATimeout() async {
    let clock = TestClock()
    let (connection, stub) = API.connection(clock: clock)
    let job = OperationJob(timeout: 0.3) { connection in
      BlockResultOperation { 1 }
        .then { _ in connection.operation(for: API.NumberRequest(value: 2, delay: 30)) }
    }
    let outcome = Outcome<Result<API.NumberRequest.Response, any Error>>()
    connection.run(job, completionQueue: testQueue) { outcome.record($0) }
    // The second step is waiting for its answer (due in 30 s on the clock) when the job's
    // 0.3 s run out.
    #expect(await eventually { stub.requests.count == 1 })
    clock.advance(by: 0.3)
    let result = await outcome.first()
    let error = result?.failureValue as? ServerConnectionError
    guard case .timedOut? = error else {
      Issue.record("expected a timeout, got \(String(describing: result))")
      return
    }
  }

  @Test func aJobFinishedBeforeItsDeadlineIsNotTimedOut() async throws {
    let (connection, _) = API.connection()
    // A deadline far beyond the call, so that only a deadline that fires early can fail it.
    let job = OperationJob(timeout: 60) { $0.operation(for: API.NumberRequest(value: 3)) }
    #expect(try await connection.runAndWait(job)?.get().value.value == 3)
  }
}
