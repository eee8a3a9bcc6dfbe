import Foundation

/// Splits UTF-8 text that arrives in chunks of any size into lines.
///
/// A line ends at LF or at CRLF, also when the CR ends one chunk and the LF starts the next;
/// the terminator is not part of the line. A CR that is not followed by LF is kept as part of
/// the line: line-oriented formats such as JSON Lines end lines with LF or CRLF only, and a
/// lone CR inside a line is content there. (Server-sent events also end a line at a lone CR;
/// ``ServerSentEventParser`` follows those rules.)
///
/// Memory stays bounded: only the unfinished line is kept between chunks, and a line longer
/// than `maximumLineLength` bytes throws ``StreamFormatError/lineTooLong(line:limit:)``
/// without being kept whole.
///
/// When a chunk holds good lines before a bad one, the good lines are returned and the next
/// call throws, so what a reader sees never depends on where the chunks were cut. Once a call
/// has thrown, every later call throws the same error.
///
/// ```swift
/// var splitter = LineSplitter()
/// var lines = try splitter.lines(in: Data("first\r\nsec".utf8))  // ["first"]
/// lines += try splitter.lines(in: Data("ond\nthird".utf8))  // ["second"]
/// if let last = try splitter.finish() { lines.append(last) }  // "third"
/// ```
public struct LineSplitter: Sendable {
  /// The longest line accepted, in bytes, without its terminator.
  public let maximumLineLength: Int
  /// The bytes of the line not finished yet (the last chunk did not end it).
  private var partial: [UInt8] = []
  /// How many lines were handed out; the line being read is number `finishedLines + 1`.
  private var finishedLines = 0
  /// The error that ended the stream, thrown again by every later call.
  private(set) var failure: StreamFormatError?

  /// Creates a splitter for one stream.
  ///
  /// - Parameter maximumLineLength: The longest line accepted, in bytes, without its
  ///   terminator; 1 MiB unless told otherwise.
  public init(maximumLineLength: Int = 1 << 20) {
    self.maximumLineLength = max(0, maximumLineLength)
  }

  /// The lines that `chunk` completes, in order, without their terminators.
  ///
  /// Bytes after the chunk's last line end are kept until a later chunk ends their line, or
  /// until ``finish()``.
  ///
  /// - Parameter chunk: The next bytes of the stream.
  /// - Returns: The lines completed by this chunk; empty when it ends none.
  /// - Throws: ``StreamFormatError/lineTooLong(line:limit:)`` or
  ///   ``StreamFormatError/invalidUTF8(line:)``, naming the line from 1.
  public mutating func lines(in chunk: Data) throws(StreamFormatError) -> [String] {
    if let failure { throw failure }
    var lines: [String] = []
    let stop = chunk.withUnsafeBytes { bytes in split(bytes, into: &lines) }
    if let stop {
      // The lines before the bad one are whole and good: hand them out now and throw on the
      // next call, as a reader would have seen them had the chunk been cut after them.
      let failure = fail(stop)
      if lines.isEmpty { throw failure }
    }
    return lines
  }

  /// The last line when the stream did not end with a line terminator, or `nil`.
  ///
  /// Call it once, when the stream has ended.
  ///
  /// - Returns: The unterminated last line, or `nil` when there is none.
  /// - Throws: ``StreamFormatError/lineTooLong(line:limit:)`` or
  ///   ``StreamFormatError/invalidUTF8(line:)`` for that line.
  public mutating func finish() throws(StreamFormatError) -> String? {
    if let failure { throw failure }
    guard !partial.isEmpty else { return nil }
    defer { partial = [] }
    // A CR kept in case an LF followed is content after all: it counts against the limit.
    guard partial.count <= maximumLineLength else {
      throw fail(.lineTooLong(line: finishedLines + 1, limit: maximumLineLength))
    }
    let line = partial.withUnsafeBytes { Self.text(of: $0) }
    guard let line else { throw fail(.invalidUTF8(line: finishedLines + 1)) }
    finishedLines += 1
    return line
  }

  /// Appends the lines `bytes` complete to `lines`; returns the error that stopped it, if any.
  private mutating func split(
    _ bytes: UnsafeRawBufferPointer, into lines: inout [String]
  ) -> StreamFormatError? {
    var start = 0
    while let newline = ByteScan.firstIndex(of: ByteScan.lf, in: bytes, from: start) {
      var end = newline
      if end > start, bytes[end - 1] == ByteScan.cr {
        end -= 1
      } else if end == start, partial.last == ByteScan.cr {
        partial.removeLast()
      }
      guard partial.count + (end - start) <= maximumLineLength else {
        return .lineTooLong(line: finishedLines + 1, limit: maximumLineLength)
      }
      let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      let line: String?
      if partial.isEmpty {
        line = Self.text(of: piece)
      } else {
        partial.append(contentsOf: piece)
        line = partial.withUnsafeBytes { Self.text(of: $0) }
        // Keep a small buffer for the next line, but hand a large one back.
        partial.removeAll(keepingCapacity: partial.capacity <= 4096)
      }
      guard let line else { return .invalidUTF8(line: finishedLines + 1) }
      lines.append(line)
      finishedLines += 1
      start = newline + 1
    }
    let rest = bytes.count - start
    let kept = partial.count + rest
    // One byte over the limit is allowed only for a CR that may be the start of a CRLF.
    let lastByte = rest > 0 ? bytes[bytes.count - 1] : partial.last
    let mayBeCRLF = kept == maximumLineLength + 1 && lastByte == ByteScan.cr
    guard kept <= maximumLineLength || mayBeCRLF else {
      return .lineTooLong(line: finishedLines + 1, limit: maximumLineLength)
    }
    partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
    return nil
  }

  /// Remembers `failure` as the end of the stream, and returns it to be thrown.
  private mutating func fail(_ failure: StreamFormatError) -> StreamFormatError {
    self.failure = failure
    partial = []
    return failure
  }

  /// The text of `bytes`, or `nil` when they are not valid UTF-8.
  private static func text(of bytes: UnsafeRawBufferPointer) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    // Decoding repairs invalid bytes with U+FFFD, so valid input is exactly what comes back.
    guard text.utf8.count == bytes.count, text.utf8.elementsEqual(bytes) else { return nil }
    return text
  }
}
