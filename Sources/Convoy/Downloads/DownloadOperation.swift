import Foundation

/// A download as an operation, made by
/// ``ServerConnection/downloadOperation(for:to:options:progress:)``.
final class DownloadOperation<Request: RequestDescribing>: NetworkOperation<DownloadedFile>,
  @unchecked Sendable
{
  /// What is downloaded.
  public let request: Request
  /// Where the file goes once complete.
  public let destination: URL
  private let options: StreamOptions
  private let progress: (@Sendable (TransferProgress) -> Void)?

  /// Creates an operation that downloads `request`'s body to `destination` once it starts.
  public init(
    _ request: Request, to destination: URL, options: StreamOptions = StreamOptions(),
    connection: ServerConnection, progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) {
    self.request = request
    self.destination = destination
    self.options = options
    self.progress = progress
    super.init(pipeline: connection.pipeline)
  }

  nonisolated(nonsending) override func perform(
    with pipeline: CallPipeline
  ) async -> Result<DownloadedFile, any Error> {
    let downloader = FileDownloader(
      pipeline: pipeline, request: request, destination: destination, options: options,
      progress: reportingToJob(progress))
    do {
      return .success(try await downloader.run())
    } catch is CancellationError {
      return .failure(ServerConnectionError.cancelled)
    } catch {
      return .failure(error)
    }
  }
}
