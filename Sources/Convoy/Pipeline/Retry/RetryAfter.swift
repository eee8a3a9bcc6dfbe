import Foundation

/// Reads a `Retry-After` header value (RFC 9110 §10.2.3).
enum RetryAfter {
  /// The seconds to wait that `value` asks for, never negative, or `nil` if it is neither a number
  /// of seconds nor an HTTP-date.
  static func delay(from value: String, now: Date) -> TimeInterval? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit) {
      return TimeInterval(trimmed)
    }
    guard let date = HTTPDate.parse(trimmed) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
