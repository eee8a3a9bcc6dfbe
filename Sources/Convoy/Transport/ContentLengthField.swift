/// Checks the `Content-Length` of an answer's head, on every transport alike.
///
/// libcurl and FoundationNetworking both read `Content-Length: 10, 4` as 10, wait for bytes that
/// never come and report a connection lost, which is retried. A length that is not one number
/// (RFC 9110 §8.6: a list of differing values, or anything but digits) is framing the server got
/// wrong: a malformed answer, reported at once.
enum ContentLengthField {
  /// Why the `Content-Length` field values `values` (each line's value; a list in one line is
  /// split at its commas) do not frame a body, or `nil` when they give one length or are absent.
  ///
  /// Read as UTF-8 bytes: every answer's head passes here, and slicing and reversing
  /// `Character`s would make it a visible part of a small transfer's cost.
  static func problem(in values: [String]) -> String? {
    var length: Substring.UTF8View?
    for value in values {
      var rest = value.utf8[...]
      while true {
        let comma = rest.firstIndex(of: UInt8(ascii: ","))
        guard let number = number(in: rest[..<(comma ?? rest.endIndex)]) else {
          return "Content-Length \"\(values.joined(separator: ", "))\" is not a length"
        }
        if let length, !length.elementsEqual(number) {
          return "Content-Length \"\(values.joined(separator: ", "))\" gives differing lengths"
        }
        length = number
        guard let comma else { break }
        rest = rest[rest.index(after: comma)...]
      }
    }
    return nil
  }

  /// The digits of one list item, without the blanks around them or leading zeros (equal
  /// repeats are allowed, §8.6, and leading zeros make the same number another string); `nil`
  /// when the item is empty or holds anything but ASCII digits.
  private static func number(in item: Substring.UTF8View) -> Substring.UTF8View? {
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = item.firstIndex(where: { !isBlank($0) }),
      let last = item.lastIndex(where: { !isBlank($0) })
    else { return nil }
    let digits = item[first...last]
    guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
      return nil
    }
    return digits.drop { $0 == UInt8(ascii: "0") }
  }
}
