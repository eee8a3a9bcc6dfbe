import Foundation

/// The body of an answer from a transport: its bytes in the order they arrived, then, once it has
/// ended, its trailer fields and the transfer's metrics.
///
/// A body asked for whole (``AnswerDelivery/whole``) usually arrives complete and is read without
/// waiting; a streamed one flows from the network as it is read, pausing the transfer while the
/// reader holds ``AnswerDelivery/streamed(bufferSize:spillsToDisk:)``'s buffer full. Read it
/// once. A body left unread must be stopped with ``cancel()``, or its transfer runs on until the
/// server is done.
public struct TransportBody: AsyncSequence, Sendable {
  /// A piece of the body, decoded from any content coding.
  public typealias Element = Data

  enum Storage: Sendable {
    case complete(Data, TransferMetrics, HTTPHeaders)
    case flowing(StreamBuffer)
  }

  let storage: Storage

  /// A body received whole.
  public init(data: Data, metrics: TransferMetrics, trailers: HTTPHeaders = HTTPHeaders()) {
    storage = .complete(data, metrics, trailers)
  }

  /// A body still flowing into `buffer`.
  init(flowing buffer: StreamBuffer) {
    storage = .flowing(buffer)
  }

  /// The trailer fields that followed the body: complete once it has ended, empty before and
  /// when there were none.
  public var trailers: HTTPHeaders {
    switch storage {
    case .complete(_, _, let trailers): trailers
    case .flowing(let buffer): buffer.trailers
    }
  }

  /// Timing and size of the transfer, once the body has ended; `nil` before and after a failure.
  public var metrics: TransferMetrics? {
    switch storage {
    case .complete(_, let metrics, _): metrics
    case .flowing(let buffer): buffer.metrics
    }
  }

  /// Stops the transfer if it still runs; a reader then gets
  /// ``TransportFailure/Kind/cancelled``. Harmless once the body has ended.
  public func cancel() {
    if case .flowing(let buffer) = storage { buffer.cancel() }
  }

  /// Creates the iterator.
  public func makeAsyncIterator() -> Iterator {
    Iterator(storage: storage)
  }

  /// Reads the pieces of a ``TransportBody``.
  public struct Iterator: AsyncIteratorProtocol {
    var storage: Storage?

    /// The next piece, or `nil` at the end of the body.
    ///
    /// - Throws: The ``TransportFailure`` that broke the transfer off.
    public mutating func next() async throws(TransportFailure) -> Data? {
      switch storage {
      case nil:
        return nil
      case .complete(let data, _, _):
        storage = nil
        return data.isEmpty ? nil : data
      case .flowing(let buffer):
        return try await buffer.nextChunk()
      }
    }
  }
}
