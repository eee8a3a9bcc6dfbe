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

  /// Creates an operation that sends `request` through `connection` once it starts.
  public init(_ request: Request, connection: ServerConnection) {
    self.request = request
    self.connection = connection
    super.init()
  }

  override var usesNetwork: Bool { true }

  /// Sends the request; the answer or error is the result.
  public override func execute() {
    var pipeline = connection.pipeline
    pipeline.jobID = context?.jobID
    let task = Task { [self, pipeline, request] in
      let result: Result<Request.Response, any Error>
      do {
        result = .success(try await pipeline.run(request))
      } catch is CancellationError {
        result = .failure(ServerConnectionError.cancelled)
      } catch {
        result = .failure(error)
      }
      finish(with: result)
    }
    onCancel { task.cancel() }
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
