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
    guard let date = httpDate(trimmed) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }

  // RFC 9110 §5.6.7: senders use IMF-fixdate; recipients must also accept the obsolete RFC 850
  // and asctime forms.
  private static let formats = [
    "EEE, dd MMM yyyy HH:mm:ss zzz",
    "EEEE, dd-MMM-yy HH:mm:ss zzz",
    "EEE MMM d HH:mm:ss yyyy",
  ]

  static func httpDate(_ text: String) -> Date? {
    // A fresh formatter per call: this path runs once per retry, and DateFormatter is not Sendable.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in formats {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
