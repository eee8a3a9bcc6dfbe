extension String {
  /// This text with each Unicode scalar that `replacements` names replaced by its text, one
  /// scalar at a time.
  ///
  /// Escaping must not use Foundation's `replacingOccurrences(of:with:)`, which matches whole
  /// characters: a quote followed by a combining mark (`'\u{301}`) is one character and is left
  /// alone, and on Linux a line break followed by one (`"\n\u{35A}"`) is missed too, so the text
  /// could still end the header or the shell quote it was escaped for (found by fuzzing
  /// multipart names).
  func replacingScalars(_ replacements: [Unicode.Scalar: String]) -> String {
    var result = ""
    result.reserveCapacity(utf8.count)
    for scalar in unicodeScalars {
      if let replacement = replacements[scalar] {
        result += replacement
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension String {
  /// This text kept on one line: line breaks, the other control characters and the Unicode line
  /// and paragraph separators written as escapes (`\n`, `\u{1B}`), so that text a server chose
  /// cannot start a log line of its own or drive a terminal.
  var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
    var result = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case _ where Self.needsEscape(scalar):
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
      || scalar == "\u{2028}" || scalar == "\u{2029}"
  }
}
