import Foundation

/// The body of a ``MockAnswer``.
public enum MockBody: Sendable {
  /// No body.
  case empty
  /// These bytes, framed with `Content-Length`.
  case bytes(Data)
  /// These pieces, sent chunked, each after its delay.
  case chunks([MockChunk])
  /// The contents of a file, read as it is sent and framed with `Content-Length`.
  case file(URL)
  /// The elements of an asynchronous sequence, sent chunked as they come; the body ends with
  /// the sequence. Made with ``stream(_:)``.
  case sequence(MockByteSource)
  /// `piece` sent `count` times, chunked, as fast as the client takes it: a body of gigabytes
  /// that the server never holds, for limits and cancellation.
  case repeated(Data, count: Int)

  /// A body that sends each element of `sequence` as a chunk as soon as it is produced.
  public static func stream<Source: AsyncSequence & Sendable>(_ sequence: Source) -> MockBody
  where Source.Element == Data {
    .sequence(MockByteSource(sequence))
  }

  /// The body's bytes when they are known before sending; `nil` for files and streams.
  var knownBytes: Data? {
    switch self {
    case .empty: Data()
    case .bytes(let data): data
    case .chunks(let chunks): chunks.reduce(into: Data()) { $0.append($1.data) }
    case .file, .sequence, .repeated: nil
    }
  }
}

/// One piece of a chunked ``MockBody``.
public struct MockChunk: Sendable {
  /// The bytes of the piece.
  public var data: Data
  /// How long the server waits before sending it.
  public var delay: Duration

  /// A piece sent after `delay`.
  public init(_ data: Data, after delay: Duration = .zero) {
    self.data = data
    self.delay = delay
  }

  /// A piece of UTF-8 text sent after `delay`.
  public init(_ text: String, after delay: Duration = .zero) {
    self.init(Data(text.utf8), after: delay)
  }
}

/// An asynchronous source of body pieces, as given to ``MockBody/stream(_:)``.
public struct MockByteSource: Sendable {
  let makeIterator: @Sendable () -> MockByteIterator

  init<Source: AsyncSequence & Sendable>(_ sequence: Source) where Source.Element == Data {
    makeIterator = { MockByteIterator(sequence.makeAsyncIterator()) }
  }
}

/// Pulls the pieces of a ``MockByteSource`` one at a time for a connection's thread.
final class MockByteIterator: @unchecked Sendable {
  // Used by one connection thread at a time, one `next()` after the other.
  private let pull: () async -> Data?

  init<Iterator: AsyncIteratorProtocol>(_ iterator: Iterator) where Iterator.Element == Data {
    var iterator = iterator
    pull = { try? await iterator.next() }
  }

  /// The next piece, or `nil` at the end (an error in the source also ends the body); waits on
  /// the calling thread, which is a connection's own.
  func waitForNext() -> Data? {
    waitOnThisThread { await self.pull() }
  }
}
