import Foundation

/// The UTF-8 lines of a streamed body, read as the loop asks for them.
///
/// Lines end at LF or CRLF (see ``LineSplitter``); the last line need not end with one. The
/// sequence only iterates its base: breaking out of the loop or cancelling the task stops
/// reading the base, and the base's errors reach the loop unchanged.
///
/// ```swift
/// func printLines<Body: AsyncSequence>(of body: Body) async throws where Body.Element == Data {
///   for try await line in body.lines {
///     print(line)
///   }
/// }
/// ```
public struct ResponseLines<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
  /// One line, without its terminator.
  public typealias Element = String

  let base: Base
  let maximumLineLength: Int

  /// Creates the lines of `base`.
  ///
  /// - Parameters:
  ///   - base: The body's chunks.
  ///   - maximumLineLength: The longest line accepted, in bytes; longer lines throw
  ///     ``StreamFormatError/lineTooLong(line:limit:)``.
  public init(_ base: Base, maximumLineLength: Int = 1 << 20) {
    self.base = base
    self.maximumLineLength = maximumLineLength
  }

  /// Starts reading the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      reader: ChunkReader(
        base: base.makeAsyncIterator(),
        format: LineSplitter(maximumLineLength: maximumLineLength)))
  }

  /// Reads chunks from the base until a line is complete.
  public struct Iterator: AsyncIteratorProtocol {
    var reader: ChunkReader<Base.AsyncIterator, LineSplitter>

    /// The next line, or `nil` once the base has ended and every line was handed out.
    public mutating func next() async throws -> String? {
      try await reader.next()
    }
  }
}

extension ResponseLines: Sendable where Base: Sendable {}

extension AsyncSequence where Element == Data {
  /// The UTF-8 lines of these chunks; lines longer than 1 MiB throw
  /// ``StreamFormatError/lineTooLong(line:limit:)``.
  ///
  /// ```swift
  /// func count<Body: AsyncSequence>(_ body: Body) async throws -> Int where Body.Element == Data {
  ///   var count = 0
  ///   for try await _ in body.lines { count += 1 }
  ///   return count
  /// }
  /// ```
  public var lines: ResponseLines<Self> { ResponseLines(self) }
}
