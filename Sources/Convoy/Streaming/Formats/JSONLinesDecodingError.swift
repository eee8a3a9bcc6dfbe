/// A line of a JSON Lines stream that did not decode into the expected type.
///
/// ``ErrorMessageProvider`` words it for people as an unreadable answer; ``description`` is for
/// developers and names the line and the field.
public struct JSONLinesDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The line that failed, counted from 1 over every line of the stream, blank ones included.
  public var line: Int
  /// What the decoder found wrong: which field, which type.
  public var failure: DecodingFailure

  /// Creates the error for `line` from the decoder's failure.
  ///
  /// - Parameters:
  ///   - line: The line that failed, counted from 1.
  ///   - failure: What the decoder found wrong.
  public init(line: Int, failure: DecodingFailure) {
    self.line = line
    self.failure = failure
  }

  /// `Line 3 of the JSON Lines stream did not decode: keyNotFound at "id" decoding Place: …`.
  public var description: String {
    "Line \(line) of the JSON Lines stream did not decode: \(failure)"
  }
}

extension JSONLinesDecodingError: CategorizedError {
  /// A line that does not decode is an answer the app cannot read.
  public var category: ErrorCategory { .unreadableResponse }
}
