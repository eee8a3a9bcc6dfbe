import Dispatch
import Foundation

// The forms of `execute`: one request, its typed answer awaited or handed to a completion
// handler. Each runs as a `NetworkRequestOperation` under the connection's network limit,
// shared with every job.
extension ServerConnection {
  /// Sends `request` and returns its typed answer.
  ///
  /// The call runs as a ``NetworkRequestOperation`` under ``networkConcurrencyLimit``, counted
  /// with the calls of every job. When a slot is free the calling task takes it and does the
  /// work at once, with no hand-over to another thread; otherwise it waits its turn without
  /// holding a thread. Cancelling the calling task cancels the transfer (or the wait) and throws
  /// ``ServerConnectionError/cancelled``.
  /// - Throws: ``ServerConnectionError`` for everything Convoy judges; errors thrown by custom
  ///   adapters, decisions or response types as they are.
  public func execute<Request: RequestDescribing>(_ request: Request) async throws
    -> Request.Response
  {
    try await operation(for: request).runInCallingTask(on: callContext)
  }

  /// Sends `request` and returns its typed answer, telling `uploadProgress` how much of the body
  /// went out: for photos, videos and other large uploads (``RequestBody/file(_:contentType:)``
  /// and multipart bodies stream from disk).
  ///
  /// ```swift
  /// let answer = try await connection.execute(UploadPhoto(file: photo)) { progress in
  ///   print(progress)  // "1.5 MB of 10 MB"
  /// }
  /// ```
  public func execute<Request: RequestDescribing>(
    _ request: Request, uploadProgress: @escaping @Sendable (TransferProgress) -> Void
  ) async throws -> Request.Response {
    try await NetworkRequestOperation(request, connection: self, uploadProgress: uploadProgress)
      .runInCallingTask(on: callContext)
  }

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
