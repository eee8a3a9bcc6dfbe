/// Checks the `Content-Length` of an answer's head, on every transport alike.
///
/// libcurl and FoundationNetworking both read `Content-Length: 10, 4` as 10, wait for bytes that
/// never come and report a connection lost, which is retried. A length that is not one number
/// (RFC 9110 §8.6: a list of differing values, or anything but digits) is framing the server got
/// wrong: a malformed answer, reported at once.
enum ContentLengthField {
  /// Why the `Content-Length` field values `values` (each line's value; a list in one line is
  /// split at its commas) do not frame a body, or `nil` when they give one length or are absent.
  static func problem(in values: [String]) -> String? {
    var length: Substring?
    for value in values {
      for item in value.split(separator: ",", omittingEmptySubsequences: false) {
        let trimmed = item.drop { $0 == " " || $0 == "\t" }.reversed().drop {
          $0 == " " || $0 == "\t"
        }
        let number = Substring(trimmed.reversed())
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
          return "Content-Length \"\(values.joined(separator: ", "))\" is not a length"
        }
        // Equal repeats are allowed (§8.6); leading zeros make the same number another string.
        let normalized = number.drop { $0 == "0" }
        if let length, length != normalized {
          return "Content-Length \"\(values.joined(separator: ", "))\" gives differing lengths"
        }
        length = normalized
      }
    }
    return nil
  }
}
