import Foundation

/// A download in progress, whose progress can be read as an `AsyncSequence`.
///
/// ```swift
/// let download = connection.startDownload(PhotoRequest(id: 7), to: destination)
/// for await progress in download.progress {
///   print(progress)  // "1.5 MB of 10 MB"
/// }
/// let file = try await download.file
/// ```
public final class Download: Sendable {
  /// Byte progress: every update while the body arrives, then the sequence ends with the
  /// download. Slow readers see the newest update, not a backlog.
  public let progress: AsyncStream<TransferProgress>
  private let task: Task<DownloadedFile, any Error>

  init(
    start:
      @escaping @Sendable (@escaping @Sendable (TransferProgress) -> Void) async throws ->
      DownloadedFile
  ) {
    let (progress, continuation) = AsyncStream.makeStream(
      of: TransferProgress.self, bufferingPolicy: .bufferingNewest(1))
    self.progress = progress
    task = Task {
      defer { continuation.finish() }
      return try await start { continuation.yield($0) }
    }
  }

  /// The downloaded file, once it is complete.
  ///
  /// - Throws: ``ServerConnectionError`` for the exchange, ``FileTransferFailure`` for the file;
  ///   ``ServerConnectionError/cancelled`` after ``cancel()``.
  public var file: DownloadedFile {
    get async throws { try await task.value }
  }

  /// Stops the download; the partial file stays beside the destination for a later call to
  /// resume.
  public func cancel() {
    task.cancel()
  }
}
