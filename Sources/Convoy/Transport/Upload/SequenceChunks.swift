import Foundation

/// The chunks of an `AsyncSequence`, iterated by one consumer at a time.
final class SequenceChunks<Chunks: AsyncSequence & Sendable>: BodyChunkProducer, @unchecked Sendable
where Chunks.Element: Sequence<UInt8> {
  // Touched only inside `next()`, which its one consumer never calls twice at once.
  private var iterator: Chunks.AsyncIterator
  private let isCancelled = Locked(false)

  init(_ chunks: Chunks) {
    iterator = chunks.makeAsyncIterator()
  }

  func next() async throws -> Data? {
    guard !isCancelled.current else { throw CancellationError() }
    guard let chunk = try await iterator.next() else { return nil }
    return chunk as? Data ?? Data(chunk)
  }

  var trailers: HTTPHeaders { HTTPHeaders() }

  func cancel() {
    isCancelled.withLock { $0 = true }
  }
}
