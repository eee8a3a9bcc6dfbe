/// Why a streamed body could not be read as lines, JSON Lines or server-sent events.
///
/// Each case says where the stream went wrong, never what it contained, so the description is
/// safe to log. ``ErrorMessageProvider`` words these errors for people as an unreadable answer.
public enum StreamFormatError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Line `line` (counted from 1) grew past `limit` bytes before it ended; reading stopped
  /// there so one endless line cannot exhaust memory.
  case lineTooLong(line: Int, limit: Int)
  /// Line `line` (counted from 1) is not valid UTF-8 text.
  case invalidUTF8(line: Int)
  /// A server-sent event (its data, type, id and the line being read) grew past `limit` bytes
  /// before it was complete.
  case eventTooLarge(limit: Int)

  /// What happened, in plain words, without any of the stream's content.
  public var description: String {
    switch self {
    case .lineTooLong(let line, let limit):
      "Line \(line) of the stream is longer than the limit of \(limit) bytes."
    case .invalidUTF8(let line):
      "Line \(line) of the stream is not valid UTF-8 text."
    case .eventTooLarge(let limit):
      "A server-sent event in the stream is larger than the limit of \(limit) bytes."
    }
  }
}

extension StreamFormatError: CategorizedError {
  /// A body that breaks its format is an answer the app cannot read.
  public var category: ErrorCategory { .unreadableResponse }
}
