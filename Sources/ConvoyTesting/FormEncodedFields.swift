import Foundation

/// Reads an `application/x-www-form-urlencoded` body, for the recorded requests of the stub
/// transport and the mock server alike.
enum FormEncodedFields {
  /// The fields of `text`, `+` read as a space and percent-escapes decoded; the last of
  /// repeated names wins.
  static func decode(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (text: Substring) in
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
      }
      fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
    }
    return fields
  }
}
