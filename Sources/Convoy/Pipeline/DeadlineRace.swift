import Foundation

/// Runs a step of a call that Convoy cannot see into — an app's adapter or decision — so that it
/// ends by the call's deadline whatever the step does.
///
/// The step runs in a task of its own while a timer waits on the connection's clock. If the
/// deadline comes first, the step's task is cancelled and the call fails with `timedOut` at
/// once; a step that ignores cancellation goes on in the background, but no longer holds the
/// call. Convoy's own steps (``DeadlineAware``) return at once or wait only on what ends by the
/// deadline, so they run in place, without a task or a timer.
enum DeadlineRace {
  /// The value of `step`, or `timedOut` when `deadline` passes on `clock` first.
  ///
  /// - Throws: `timedOut` at the deadline, ``ServerConnectionError/cancelled`` when the calling
  ///   task is cancelled, or what `step` throws.
  static func run<Value: Sendable>(
    until deadline: Date, on clock: any ConvoyClock, timedOut: ServerConnectionError,
    _ step: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let remaining = deadline.timeIntervalSince(clock.now)
    guard remaining > 0 else { throw timedOut }
    let race = Race<Value>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        race.begin(continuation)
        let task = Task {
          do {
            race.end(.success(try await step()))
          } catch {
            race.end(.failure(error))
          }
        }
        let timer = clock.schedule(after: remaining) { race.end(.failure(timedOut)) }
        race.hold(task, timer)
      }
    } onCancel: {
      race.end(.failure(ServerConnectionError.cancelled))
    }
  }

  /// One race: the first end resumes the caller; the step's task and the timer are then stopped.
  private final class Race<Value: Sendable>: Sendable {
    private struct State {
      var continuation: CheckedContinuation<Value, any Error>?
      var outcome: Result<Value, any Error>?
      var task: Task<Void, Never>?
      var timer: ClockTimer?
    }

    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<Value, any Error>) {
      let early = state.withLock { state in
        if state.outcome == nil { state.continuation = continuation }
        return state.outcome
      }
      if let early { continuation.resume(with: early) }
    }

    /// Keeps what must be stopped at the end, or stops it now if the race is already over.
    func hold(_ task: Task<Void, Never>, _ timer: ClockTimer) {
      let isOver = state.withLock { state in
        if state.outcome == nil { (state.task, state.timer) = (task, timer) }
        return state.outcome != nil
      }
      if isOver {
        task.cancel()
        timer.cancel()
      }
    }

    func end(_ outcome: Result<Value, any Error>) {
      let ended = state.withLock {
        state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?, ClockTimer?)? in
        guard state.outcome == nil else { return nil }
        state.outcome = outcome
        defer { (state.continuation, state.task, state.timer) = (nil, nil, nil) }
        return (state.continuation, state.task, state.timer)
      }
      guard let (continuation, task, timer) = ended else { return }
      task?.cancel()
      timer?.cancel()
      continuation?.resume(with: outcome)
    }
  }
}
