import Dispatch
import Foundation

extension ServerConnection {
  /// Runs `job` on this connection's queues and delivers its typed output once.
  ///
  /// ```swift
  /// let token = connection.run(LoginJob(credentials: credentials), completionQueue: .main) {
  ///   result in
  ///   switch result {
  ///   case .success(let session): show(session)
  ///   case .failure(let error) where error.isCancellation: break
  ///   case .failure(let error): show(ErrorMessageProvider.standard.message(for: error))
  ///   }
  /// }
  /// token.cancel()  // from anywhere, any number of times
  /// ```
  ///
  /// - Parameters:
  ///   - job: What to run.
  ///   - completionQueue: Where `progress` and `completion` run: Convoy's serial
  ///     `DispatchQueue.convoyCompletions` by default, which runs in every kind of
  ///     program; apps pass `.main` to update their UI.
  ///   - progress: Told how far the job got, coalesced; on a serial queue its last call comes
  ///     before `completion` and reports every unit done.
  ///   - completion: Runs exactly once: with the output, the first error,
  ///     ``ServerConnectionError/cancelled`` after the token was cancelled, or
  ///     ``ServerConnectionError/timedOut(_:)`` once the job's ``Job/timeout`` passed.
  /// - Returns: A token that cancels the job, every operation in it and every transfer in flight.
  @discardableResult
  public func run<J: Job>(
    _ job: J,
    completionQueue: DispatchQueue = .convoyCompletions,
    progress: (@Sendable (JobProgress) -> Void)? = nil,
    completion: @escaping @Sendable (Result<J.Output, any Error>) -> Void
  ) -> JobToken {
    let token = JobToken()
    start(job, token: token, queue: completionQueue, progress: progress, completion: completion)
    return token
  }

  /// Runs `job` and returns its output; cancelling the calling task cancels the job.
  ///
  /// ```swift
  /// let session = try await connection.run(LoginJob(credentials: credentials))
  /// ```
  /// - Parameters:
  ///   - job: What to run.
  ///   - progress: Told how far the job got, on an arbitrary thread.
  /// - Returns: The job's output.
  /// - Throws: The error that stopped the job; ``ServerConnectionError/cancelled`` when the task
  ///   was cancelled.
  public func run<J: Job>(
    _ job: J, progress: (@Sendable (JobProgress) -> Void)? = nil
  ) async throws -> J.Output {
    let token = JobToken()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        start(job, token: token, queue: nil, progress: progress) { continuation.resume(with: $0) }
      }
    } onCancel: {
      token.cancel()
    }
  }

  /// Runs a chain, group or any other operation built on the spot, as a one-off job, without a
  /// ``Job`` type of its own; see ``run(_:completionQueue:progress:completion:)-(J,_,_,_)``.
  ///
  /// ```swift
  /// let token = connection.run(
  ///   connection.operation(for: ProfileRequest())
  ///     .then { profile in connection.operation(for: AvatarRequest(url: profile.value.avatar)) }
  /// ) { result in print(result) }
  /// ```
  ///
  /// An operation runs once: running the same one again completes with
  /// ``OperationError/alreadyRun``.
  @discardableResult
  public func run<Output: Sendable>(
    _ operation: ResultOperation<Output>,
    completionQueue: DispatchQueue = .convoyCompletions,
    progress: (@Sendable (JobProgress) -> Void)? = nil,
    completion: @escaping @Sendable (Result<Output, any Error>) -> Void
  ) -> JobToken {
    run(
      OperationJob(operation), completionQueue: completionQueue, progress: progress,
      completion: completion)
  }

  /// Runs an operation built on the spot and returns its output; cancelling the calling task
  /// cancels it.
  public func run<Output: Sendable>(
    _ operation: ResultOperation<Output>, progress: (@Sendable (JobProgress) -> Void)? = nil
  ) async throws -> Output {
    try await run(OperationJob(operation), progress: progress)
  }

  /// Cancels the job `token` was returned for; the same as `token.cancel()`.
  public func cancel(_ token: JobToken) {
    token.cancel()
  }

  private func start<J: Job>(
    _ job: J, token: JobToken, queue: DispatchQueue?,
    progress: (@Sendable (JobProgress) -> Void)?,
    completion: @escaping @Sendable (Result<J.Output, any Error>) -> Void
  ) {
    let events =
      observers.isEmpty
      ? nil
      : JobEventEmitter(observers: observers, name: String(describing: J.self))
    let reportProgress: (@Sendable (JobProgress) -> Void)?
    if let events {
      reportProgress = { current in
        events.emit(
          .jobProgress(
            .init(
              job: events.job, completedUnits: current.completedUnitCount,
              totalUnits: current.totalUnitCount)))
        progress?(current)
      }
    } else {
      reportProgress = progress
    }
    let run = JobRun(
      root: job.makeOperation(on: self), completionQueue: queue,
      progress: JobProgressTracker(queue: queue, handler: reportProgress), events: events,
      completion: completion)
    run.start(
      on: jobQueues, token: token, timeout: job.timeout, timeoutError: job.timeoutError,
      clock: configuration.clock)
  }
}

extension ServerConnection {
  /// Sends `request` and delivers its typed answer on `completionQueue`.
  ///
  /// The call takes the road of an awaited ``execute(_:)``, in a task of its own: its
  /// ``NetworkRequestOperation`` holds one of the connection's network slots, shared with every
  /// other call and job, and reports the same events. The task starts on the calling thread and
  /// runs there up to its first wait: with a slot free and nothing else to wait for (a token
  /// renewal, say), the request is built and handed to the transport before this method
  /// returns. Nothing but `completion` runs on `completionQueue`.
  /// - Parameters:
  ///   - request: What to send.
  ///   - completionQueue: Where `completion` runs: Convoy's serial
  ///     `DispatchQueue.convoyCompletions` by default; apps pass `.main` to update
  ///     their UI.
  ///   - completion: Runs exactly once, with the answer or the error (``ServerConnectionError/cancelled``
  ///     after the token was cancelled).
  /// - Returns: A token that cancels the call.
  @discardableResult
  public func execute<Request: RequestDescribing>(
    _ request: Request,
    completionQueue: DispatchQueue = .convoyCompletions,
    completion: @escaping @Sendable (Result<Request.Response, any Error>) -> Void
  ) -> JobToken {
    // Not a one-request job on the operation queues: handing the operation to a queue thread,
    // then the answer to the job's bookkeeping, would cost more than the call itself; a call
    // takes no hand-over it does not need (`convoy-benchmarks calls` measures the forms).
    let token = JobToken()
    let operation = operation(for: request)
    // The token shows the call's progress as it showed a job's: one unit, and its bytes.
    let progress = JobProgressTracker(queue: nil, handler: nil)
    token.attach(progress)
    let context = OperationContext(queues: jobQueues, progress: progress)
    // The call begins on the calling thread, as an awaited call begins in its task: only its
    // beginning, up to the transfer (or the wait for a slot), runs before this returns.
    let task = Task.startingHere {
      let result: Result<Request.Response, any Error>
      do {
        result = .success(try await operation.runInCallingTask(on: context))
      } catch {
        result = .failure(error)
      }
      completionQueue.async { completion(result) }
    }
    token.onCancel { task.cancel() }
    return token
  }
}
