import Foundation

/// A request body produced while the request is sent, in constant memory however long it is:
/// the chunks of an `AsyncSequence`, or bytes an app writes with a ``RequestBodyWriter``.
///
/// A streamed body says whether it can be produced again, which a retry, a 307 or 308 redirect
/// and a token renewal need: see ``Replay``. A transport reads it through a
/// ``RequestBodyStream`` it opens for each transfer.
///
/// ```swift
/// let export = StreamedBody.restartable {
///   AsyncStream<Data> { continuation in
///     continuation.yield(Data("id,name\n".utf8))
///     continuation.yield(Data("1,Harbour\n".utf8))
///     continuation.finish()
///   }
/// }
/// ```
public struct StreamedBody: Sendable {
  /// Whether, and from where, the body can be produced again.
  public enum Replay: String, Sendable, Hashable {
    /// Produced once (an `AsyncSequence` that cannot be iterated twice, such as a live
    /// recording): never sent twice. A call that would have to send it again fails with
    /// ``ServerConnectionError/bodyNotResendable(_:_:)``.
    case oneShot
    /// Produced afresh, from its start, for every transfer.
    case restartable
    /// Produced afresh from any offset: a resumable upload goes on where the server stopped.
    case seekable
  }

  /// The body's length in bytes when known in advance: sent as `Content-Length`. `nil` sends the
  /// body chunked on HTTP/1.1 and in `DATA` frames to its end on HTTP/2.
  public let length: Int64?
  /// Whether the body can be produced again.
  public let replay: Replay
  private let opener: Opener

  private init(
    length: Int64?, replay: Replay,
    make: @escaping @Sendable (_ offset: Int64) -> any BodyChunkProducer
  ) {
    self.length = length
    self.replay = replay
    self.opener = Opener(make: make)
  }

  /// Whether the body can be sent more than once.
  public var isReplayable: Bool { replay != .oneShot }

  /// Opens a reading of the body for one transfer, from `offset` bytes in.
  ///
  /// - Throws: ``TransportFailure/Kind/requestBodyFailed`` for a one-shot body opened before, or
  ///   an offset other than 0 on a body that is not seekable.
  public func open(at offset: Int64 = 0) throws(TransportFailure) -> RequestBodyStream {
    guard offset == 0 || replay == .seekable else {
      throw TransportFailure(
        kind: .requestBodyFailed, detail: "the body cannot start at an offset (it is not seekable)")
    }
    guard opener.mayOpen(replay) else {
      throw TransportFailure(
        kind: .requestBodyFailed, detail: "the body can be read only once and was read already")
    }
    let remaining = length.map { max(0, $0 - offset) }
    return RequestBodyStream(length: remaining, producer: opener.make(offset))
  }

  /// A body read once from `chunks`: never sent twice.
  ///
  /// - Parameters:
  ///   - chunks: The body's bytes, chunk by chunk.
  ///   - length: The number of bytes `chunks` will produce, when known.
  public static func oneShot<Chunks: AsyncSequence & Sendable>(
    _ chunks: Chunks, length: Int64? = nil
  ) -> StreamedBody where Chunks.Element: Sequence<UInt8> {
    StreamedBody(length: length, replay: .oneShot) { _ in SequenceChunks(chunks) }
  }

  /// A body made afresh by `makeChunks` for every transfer.
  ///
  /// - Parameters:
  ///   - length: The number of bytes every sequence will produce, when known.
  ///   - makeChunks: Makes a sequence of the whole body, from its start.
  public static func restartable<Chunks: AsyncSequence & Sendable>(
    length: Int64? = nil, _ makeChunks: @escaping @Sendable () -> Chunks
  ) -> StreamedBody where Chunks.Element: Sequence<UInt8> {
    StreamedBody(length: length, replay: .restartable) { _ in SequenceChunks(makeChunks()) }
  }

  /// A body `makeChunks` can produce from any offset: its bytes from `offset` to the end.
  ///
  /// - Parameters:
  ///   - length: The length of the whole body.
  ///   - makeChunks: Makes a sequence of the body's bytes from `offset` to its end.
  public static func seekable<Chunks: AsyncSequence & Sendable>(
    length: Int64, _ makeChunks: @escaping @Sendable (_ offset: Int64) -> Chunks
  ) -> StreamedBody where Chunks.Element: Sequence<UInt8> {
    StreamedBody(length: length, replay: .seekable) { SequenceChunks(makeChunks($0)) }
  }

  /// A body `write` writes for every transfer, suspending while the transport is behind.
  ///
  /// `write` runs once per transfer, concurrently with it, so the body is restartable. Returning
  /// ends the body; throwing ends the transfer with ``TransportFailure/Kind/requestBodyFailed``.
  ///
  /// - Parameters:
  ///   - length: The number of bytes `write` will write, when known.
  ///   - write: Writes the whole body with the writer it is given.
  public static func writer(
    length: Int64? = nil, _ write: @escaping @Sendable (RequestBodyWriter) async throws -> Void
  ) -> StreamedBody {
    StreamedBody(length: length, replay: .restartable) { _ in WriterChunks(write) }
  }

  /// Makes producers, and refuses a one-shot body's second reading.
  private final class Opener: Sendable {
    let make: @Sendable (Int64) -> any BodyChunkProducer
    private let opened = Locked(false)

    init(make: @escaping @Sendable (Int64) -> any BodyChunkProducer) {
      self.make = make
    }

    func mayOpen(_ replay: Replay) -> Bool {
      opened.withLock { opened in
        defer { opened = true }
        return replay != .oneShot || !opened
      }
    }
  }
}
