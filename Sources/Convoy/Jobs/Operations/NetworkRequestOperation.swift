import Foundation

/// One call through a ``ServerConnection``, as an operation producing the request's typed answer.
///
/// The `URLRequest` is built when the operation starts, and again for every attempt, never in
/// `init`: an operation created before a login or a configuration change sends the current token
/// and settings. Cancelling the operation cancels the transfer; the operation finishes once the
/// transfer really stopped. It holds one of the connection's
/// ``ServerConnection/networkConcurrencyLimit`` slots while it runs.
///
/// ```swift
/// let places = connection.operation(for: PlacesRequest())
/// ```
public final class NetworkRequestOperation<Request: RequestDescribing>:
  NetworkOperation<Request.Response>, @unchecked Sendable
{
  /// What is sent.
  public let request: Request
  /// Told how much of the request body went out, if anyone asked.
  private let uploadProgress: (@Sendable (TransferProgress) -> Void)?

  /// Creates an operation that sends `request` through `pipeline` once it starts; apps make
  /// one through ``ServerConnection/operation(for:)`` or the connection initializer.
  init(
    _ request: Request, pipeline: CallPipeline,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
  ) {
    self.request = request
    self.uploadProgress = uploadProgress
    super.init(pipeline: pipeline)
  }

  nonisolated(nonsending) override func perform(
    with pipeline: CallPipeline
  ) async -> Result<Request.Response, any Error> {
    // Only a call whose upload progress someone reads travels the streaming side that reports
    // it: one that asked, or, in a job that counts bytes, one whose body is streamed (a file, a
    // stream), as a download counts there. Every other call keeps the buffered exchange.
    let progress =
      uploadProgress != nil || Self.streamsItsBody(request)
      ? reportingToJob(uploadProgress) : nil
    return await pipeline.result(of: request, uploadProgress: progress)
  }

  private static func streamsItsBody(_ request: Request) -> Bool {
    switch request.body?.content {
    case .file?, .temporaryFile?, .stream?: true
    case .data?, .encoded?, nil: false
    }
  }
}
