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
