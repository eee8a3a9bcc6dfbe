import Foundation

/// The body of a ``ResponseStream``: pieces of bytes in the order they arrived.
///
/// Read it once. Memory stays bounded by ``StreamOptions/bufferSize``: a reader that is slower
/// than the network pauses the transfer instead of letting bytes pile up. Ending the loop early,
/// cancelling its task, or letting the last copy of the stream go unread closes the transfer at
/// once. A transfer that fails part-way throws ``ServerConnectionError`` after the bytes that did
/// arrive.
public struct ResponseBody: AsyncSequence, Sendable {
  /// A piece of the body.
  public typealias Element = Data

  let buffer: StreamBuffer
  let errorContext: ErrorContext
  /// Closes the transfer once no copy of the stream and no iterator is left.
  private let lease: StreamLease

  init(buffer: StreamBuffer, errorContext: ErrorContext) {
    self.buffer = buffer
    self.errorContext = errorContext
    self.lease = StreamLease(buffer, closing: .dropped)
  }

  /// The trailer fields that followed the body (a checksum, a gRPC status): complete once the
  /// body has ended, empty before that and when there were none. Read on `CurlTransport`;
  /// `URLSessionTransport` cannot read them (Transports.md).
  public var trailers: HTTPHeaders { buffer.trailers }

  /// Creates the iterator.
  public func makeAsyncIterator() -> Iterator {
    Iterator(body: self, lease: StreamLease(buffer, closing: .readerLeft))
  }

  /// Runs `action` once the body has ended, failed or been closed.
  func whenOver(_ action: @escaping @Sendable (Result<TransferMetrics, TransportFailure>) -> Void) {
    buffer.whenOver(action)
  }

  /// Reads the pieces of a ``ResponseBody``.
  public struct Iterator: AsyncIteratorProtocol {
    let body: ResponseBody
    /// Closes the transfer when the loop that reads it ends, even while the stream lives on.
    let lease: StreamLease

    /// The next piece, or `nil` at the end of the body.
    ///
    /// - Throws: ``ServerConnectionError/cancelled`` once the task was cancelled;
    ///   ``ServerConnectionError/transportFailed(_:_:)`` when the transfer broke off.
    public mutating func next() async throws -> Data? {
      do {
        return try await body.buffer.nextChunk()
      } catch {
        if error.kind == .cancelled { throw ServerConnectionError.cancelled }
        throw ServerConnectionError.transportFailed(error, body.errorContext)
      }
    }
  }
}

/// Cancels a stream's transfer when the last holder of it goes away; harmless once it ended.
///
/// Nothing the buffer holds (its end observers, its transport handle) may hold a lease, or the
/// lease would keep itself alive as long as the transfer runs: a stream let go unread would keep
/// its connection and its network slot.
final class StreamLease: Sendable {
  private let buffer: StreamBuffer
  private let closing: StreamBuffer.Closing

  /// `closing` says why the transfer stops if this lease is the one that closes it.
  init(_ buffer: StreamBuffer, closing: StreamBuffer.Closing) {
    self.buffer = buffer
    self.closing = closing
    if closing == .readerLeft { buffer.noteReader() }
  }

  deinit {
    buffer.closeIfOpen(closing)
  }
}
