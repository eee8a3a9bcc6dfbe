import Foundation

/// One reading of a ``StreamedBody``, by one transfer: its chunks in order, then the trailers.
///
/// A transport calls ``next()`` from one task at a time until it returns `nil`, then reads
/// ``trailers``. The stream holds back a body that does not keep its announced ``length``: a
/// request cut short must never be taken as complete.
public final class RequestBodyStream: Sendable {
  /// The bytes this reading will produce, when known.
  public let length: Int64?
  private let producer: any BodyChunkProducer
  private let produced = Locked<Int64>(0)

  init(length: Int64?, producer: any BodyChunkProducer) {
    self.length = length
    self.producer = producer
  }

  /// The next chunk, never empty, or `nil` at the end of the body.
  ///
  /// - Throws: ``TransportFailure/Kind/requestBodyFailed`` when the source threw, was cancelled,
  ///   or produced more or fewer bytes than its ``length``.
  public func next() async throws(TransportFailure) -> Data? {
    while true {
      let chunk: Data?
      do {
        chunk = try await producer.next()
      } catch {
        throw TransportFailure(
          kind: .requestBodyFailed, detail: "the body's source failed: \(error)")
      }
      let total = produced.withLock { total -> Int64 in
        total += Int64(chunk?.count ?? 0)
        return total
      }
      guard let chunk else {
        if let length, total != length { throw Self.lengthMismatch(length, produced: total) }
        return nil
      }
      if let length, total > length { throw Self.lengthMismatch(length, produced: total) }
      if !chunk.isEmpty { return chunk }
    }
  }

  /// The trailer fields to send after the body; read once ``next()`` returned `nil`.
  public var trailers: HTTPHeaders { producer.trailers }

  /// Stops the source: a writer's task is cancelled, and ``next()`` fails from then on.
  public func cancel() {
    producer.cancel()
  }

  private static func lengthMismatch(_ length: Int64, produced: Int64) -> TransportFailure {
    TransportFailure(
      kind: .requestBodyFailed,
      detail:
        "the body announced \(length) bytes and produced \(produced > length ? "more" : "\(produced)")"
    )
  }
}
