import Foundation

/// A streamed call as an operation, made by
/// ``ServerConnection/streamOperation(for:options:consume:)``.
final class StreamOperation<Request: RequestDescribing, Output: Sendable>:
  NetworkOperation<Output>, @unchecked Sendable
{
  /// What is sent.
  public let request: Request
  private let options: StreamOptions
  private let consume: @Sendable (ResponseStream) async throws -> Output

  /// Creates an operation that streams `request` through `connection` once it starts.
  public init(
    _ request: Request, options: StreamOptions = StreamOptions(), connection: ServerConnection,
    consume: @escaping @Sendable (ResponseStream) async throws -> Output
  ) {
    self.request = request
    self.options = options
    self.consume = consume
    super.init(pipeline: connection.pipeline)
  }

  nonisolated(nonsending) override func perform(
    with pipeline: CallPipeline
  ) async -> Result<Output, any Error> {
    do {
      let stream = try await pipeline.openStream(request, options: options)
      return .success(try await consume(stream))
    } catch is CancellationError {
      return .failure(ServerConnectionError.cancelled)
    } catch {
      return .failure(error)
    }
  }
}

/// Holds a network slot for a stream that ``ServerConnection/stream(_:options:)`` hands to its
/// caller: from the request until the body is over.
final class StreamSlotOperation<Request: RequestDescribing>: NetworkOperation<Int64>,
  @unchecked Sendable
{
  private let request: Request
  private let options: StreamOptions

  init(_ request: Request, options: StreamOptions, connection: ServerConnection) {
    self.request = request
    self.options = options
    super.init(pipeline: connection.pipeline)
  }

  /// Waits for a slot, opens the stream in the calling task and keeps the slot until the
  /// stream's body is over.
  func open(on context: OperationContext) async throws -> ResponseStream {
    guard await begin(on: context) else { throw ServerConnectionError.cancelled }
    do {
      let stream = try await pipeline.openStream(request, options: options)
      let buffer = stream.body.buffer
      stream.body.whenOver { [self] _ in finish(with: .success(buffer.deliveredByteCount)) }
      return stream
    } catch {
      finish(with: .failure(error))
      throw error
    }
  }
}

extension ServerConnection {
  /// Sends `request` and returns its answer as a stream once the head is judged.
  ///
  /// The request travels the same road as ``execute(_:)``: adapters and signing, redirects, a
  /// `401` renewed and replayed, transient failures retried under the retry policy, the status
  /// validated (an error status throws with the server's message, read from at most 64 KiB of
  /// its body). Only then does the body flow to you, at your pace.
  ///
  /// ```swift
  /// let stream = try await connection.stream(FeedRequest())
  /// for try await line in stream.body.lines {
  ///   print(line)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - request: What to send. Its `Response` type is not used.
  ///   - options: The buffer size and the head and idle limits.
  /// - Returns: The head and the body.
  /// - Throws: ``ServerConnectionError``, as ``execute(_:)`` does.
  public func stream<Request: RequestDescribing>(
    _ request: Request, options: StreamOptions = StreamOptions()
  ) async throws -> ResponseStream {
    try await StreamSlotOperation(request, options: options, connection: self)
      .open(on: callContext)
  }

  /// An operation that streams `request` and produces what `consume` makes of the stream, so a
  /// stream can be a step of a chain or a member of a group.
  ///
  /// The operation holds a network slot until `consume` returns; cancelling it (or the job's
  /// token) closes the transfer and cancels `consume`'s task.
  ///
  /// ```swift
  /// let firstLine = connection.streamOperation(for: FeedRequest()) { stream in
  ///   for try await line in stream.body.lines { return line }
  ///   return ""
  /// }
  /// ```
  public func streamOperation<Request: RequestDescribing, Output: Sendable>(
    for request: Request, options: StreamOptions = StreamOptions(),
    consume: @escaping @Sendable (ResponseStream) async throws -> Output
  ) -> NetworkOperation<Output> {
    StreamOperation(request, options: options, connection: self, consume: consume)
  }
}
