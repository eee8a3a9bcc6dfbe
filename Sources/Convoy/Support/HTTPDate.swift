import Foundation

/// Parses HTTP dates without `DateFormatter`, which is locale-sensitive and costly to create.
///
/// RFC 9110 §5.6.7 requires recipients to accept all three historical forms:
/// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850)
/// and `Sun Nov  6 08:49:37 1994` (asctime).
enum HTTPDate {
  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  /// The instant `value` names, or `nil` when it is not an HTTP date.
  static func parse(_ value: String) -> Date? {
    var tokens = value.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }[...]
    if let first = tokens.first, monthNumber(first) == nil, Int(first) == nil {
      tokens = tokens.dropFirst()  // the weekday, which the date already implies
    }
    let parts = Array(tokens)
    guard parts.count >= 4 else { return nil }
    var year: Int?
    let day: Int?
    let month: Int?
    let time: Substring
    if let asctimeMonth = monthNumber(parts[0]) {
      (month, day, time, year) = (asctimeMonth, Int(parts[1]), parts[2], Int(parts[3]))
    } else {
      (day, month, year, time) = (Int(parts[0]), monthNumber(parts[1]), Int(parts[2]), parts[3])
      // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is in the past.
      if let short = year, parts[2].count == 2 { year = short + (short < 70 ? 2000 : 1900) }
    }
    let clock = time.split(separator: ":").compactMap { Int($0) }
    // Years beyond four digits are no HTTP date, and would overflow the day count: a 19-digit
    // year would trap (HeaderParsingTests.yearsBeyondFourDigitsAreNoDate).
    guard let day, let month, let year, (0...9999).contains(year), clock.count == 3,
      (1...31).contains(day),
      (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
    else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let seconds = days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private static func monthNumber(_ token: Substring) -> Int? {
    months.firstIndex(of: token.lowercased()).map { $0 + 1 }
  }

  /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
