import Foundation

/// One call through a ``ServerConnection``, as an operation producing the request's typed answer.
///
/// The `URLRequest` is built when the operation starts, and again for every attempt, never in
/// `init`: an operation created before a login or a configuration change sends the current token
/// and settings. Cancelling the operation cancels the transfer; the operation finishes once the
/// transfer really stopped. It runs on the connection's network queue, whose width is the
/// connection's ``ServerConnection/networkConcurrencyLimit``.
///
/// ```swift
/// let places = connection.operation(for: PlacesRequest())
/// ```
public final class NetworkRequestOperation<Request: RequestDescribing>:
  ResultOperation<Request.Response>, @unchecked Sendable
{
  /// What is sent.
  public let request: Request
  private let connection: ServerConnection
  /// Set while a task awaits this operation through ``ServerConnection/execute(_:)``: resumed
  /// with `true` when the queue starts the operation (the task then runs the call itself), with
  /// `false` when it will never run. Guarded by `stateLock`.
  private var awaitingTask: CheckedContinuation<Bool, Never>?

  /// Creates an operation that sends `request` through `connection` once it starts.
  public init(_ request: Request, connection: ServerConnection) {
    self.request = request
    self.connection = connection
    super.init()
  }

  override var usesNetwork: Bool { true }

  /// Sends the request; the answer or error is the result.
  public override func execute() {
    if let awaitingTask = takeAwaitingTask() {
      awaitingTask.resume(returning: true)
      return
    }
    var pipeline = connection.pipeline
    pipeline.jobID = context?.jobID
    let task = Task { [self, pipeline, request] in
      finish(with: await pipeline.result(of: request))
    }
    onCancel { task.cancel() }
  }

  override func skipExecution() {
    takeAwaitingTask()?.resume(returning: false)
  }

  /// Runs the operation on `context`'s network queue with the calling task doing the work.
  ///
  /// The operation holds its place on the queue like any other: it waits for a free slot, and
  /// it is executing while the call is in flight. Only the work moves: the queue's thread wakes
  /// the waiting task instead of starting a task of its own, which saves two thread hand-overs
  /// per call (the result needs no hop back to the caller). Cancelling the calling task cancels
  /// the call; while the operation still waits for a slot, the call ends at once.
  func runInCallingTask(on context: OperationContext) async throws -> Request.Response {
    let started = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        stateLock.withLock { awaitingTask = continuation }
        context.enqueue(self, whenFinished: nil)
      }
    } onCancel: {
      // Work that never began has nothing to wait for; the queue later finds the operation
      // cancelled and finishes it without running it.
      if !cancelReportingWhetherStarted() { takeAwaitingTask()?.resume(returning: false) }
    }
    guard started else { throw ServerConnectionError.cancelled }
    let result = await connection.pipeline.result(of: request)
    finish(with: result)
    return try result.get()
  }

  private func takeAwaitingTask() -> CheckedContinuation<Bool, Never>? {
    stateLock.withLock {
      defer { awaitingTask = nil }
      return awaitingTask
    }
  }
}

extension ServerConnection {
  /// An operation that sends `request` through this connection, for chains and groups.
  ///
  /// ```swift
  /// connection.operation(for: ProfileRequest())
  ///   .then { profile in connection.operation(for: AvatarRequest(url: profile.value.avatar)) }
  /// ```
  public func operation<Request: RequestDescribing>(for request: Request)
    -> NetworkRequestOperation<Request>
  {
    NetworkRequestOperation(request, connection: self)
  }
}
