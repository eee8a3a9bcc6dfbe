import Foundation

/// Accumulates Swift source with two-space indentation.
struct CodeBuilder {
  private(set) var text = ""
  private var level = 0

  /// Appends one line at the current indentation (an empty line stays empty).
  mutating func line(_ content: String = "") {
    if !content.isEmpty { text += String(repeating: "  ", count: level) + content }
    text += "\n"
  }

  /// Appends `opening`, the body one level deeper, then `closing`.
  mutating func block(_ opening: String, closing: String = "}", _ body: (inout CodeBuilder) -> Void)
  {
    line(opening)
    level += 1
    body(&self)
    level -= 1
    line(closing)
  }

  /// Appends `text` as `///` documentation, one comment line per text line.
  mutating func documentation(_ content: String?) {
    guard let content, !content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return
    }
    let lines = Self.lines(of: content.trimmingCharacters(in: .whitespacesAndNewlines))
    for docLine in lines {
      let trimmed = docLine.trimmingCharacters(in: .whitespaces)
      line(trimmed.isEmpty ? "///" : "/// " + trimmed)
    }
  }

  /// The lines of `text`, split at every scalar that ends a line in Swift source or in a
  /// reader's editor: CR, LF, CR LF, NEL, and the Unicode line and paragraph separators.
  ///
  /// Splitting by `Character` kept a lone CR, and CR LF (one `Character`), inside a line, so a
  /// document's description could end the `///` comment and write code of its own into the
  /// generated file.
  static func lines(of text: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar {
      case "\n" where previousWasCR:
        continue
      case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
        lines.append(String(current))
        current = String.UnicodeScalarView()
      default:
        current.append(scalar)
      }
    }
    lines.append(String(current))
    return lines
  }
}
