import Foundation

extension ServerConnection {
  /// Downloads `request`'s body to a file at `destination`, in constant memory.
  ///
  /// The body is written to `destination` plus `.convoy-partial` and moved to `destination` in one
  /// step once it is complete (replacing a file already there); until then nothing is at
  /// `destination`. A connection that drops mid-body is resumed where it stopped, and so is a
  /// later call for the same destination after an interrupted one, whenever the server supports
  /// ranges and the file did not change (`Range` with `If-Range`); otherwise the download starts
  /// over.
  ///
  /// ```swift
  /// let file = try await connection.download(PhotoRequest(id: 7), to: destination) { progress in
  ///   print(progress.fractionCompleted ?? 0)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - request: What to download; it travels the same road as ``execute(_:)`` (signing,
  ///     renewal, retries, redirects, status validation).
  ///   - destination: Where the file goes.
  ///   - options: The stream's buffer size and its head and idle limits.
  ///   - progress: Told the bytes on disk (and the total, when known) as they arrive.
  /// - Returns: The file, once complete.
  /// - Throws: ``ServerConnectionError`` for the exchange, ``FileTransferFailure`` when the file
  ///   cannot be written or did not arrive whole.
  public func download<Request: RequestDescribing>(
    _ request: Request, to destination: URL, options: StreamOptions = StreamOptions(),
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> DownloadedFile {
    try await downloadOperation(for: request, to: destination, options: options, progress: progress)
      .runInCallingTask(on: callContext)
  }

  /// Starts downloading `request`'s body to `destination`, with progress as an `AsyncSequence`;
  /// see ``download(_:to:options:progress:)``.
  public func startDownload<Request: RequestDescribing>(
    _ request: Request, to destination: URL, options: StreamOptions = StreamOptions()
  ) -> Download {
    Download { [self] progress in
      try await download(request, to: destination, options: options, progress: progress)
    }
  }

  /// An operation that downloads `request`'s body to `destination`, so that a download can be a
  /// step of a chain or a member of a group; the job's token cancels it like any other call.
  ///
  /// ```swift
  /// let photo = connection.downloadOperation(for: PhotoRequest(id: 7), to: destination)
  /// ```
  public func downloadOperation<Request: RequestDescribing>(
    for request: Request, to destination: URL, options: StreamOptions = StreamOptions(),
    progress: (@Sendable (TransferProgress) -> Void)? = nil
  ) -> NetworkOperation<DownloadedFile> {
    DownloadOperation(
      request, to: destination, options: options, connection: self, progress: progress)
  }
}
