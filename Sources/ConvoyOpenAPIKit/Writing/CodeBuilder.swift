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
    let lines = content.trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: "\n", omittingEmptySubsequences: false)
    for docLine in lines {
      let trimmed = docLine.trimmingCharacters(in: .whitespaces)
      line(trimmed.isEmpty ? "///" : "/// " + trimmed)
    }
  }
}
