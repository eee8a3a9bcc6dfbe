import Foundation

/// CHANGELOG.md, for tests that keep what Convoy reports about itself in step with it.
public enum Changelog {
  /// The newest version the changelog names: its first `## x.y.z` heading (`## Unreleased` is
  /// not a version); `nil` when there is none.
  public static func newestVersion() throws -> String? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    for line in text.split(separator: "\n") where line.hasPrefix("## ") {
      let word = line.dropFirst(3).prefix { !$0.isWhitespace }
      if word.split(separator: ".").count == 3, word.allSatisfy({ $0.isNumber || $0 == "." }) {
        return String(word)
      }
    }
    return nil
  }
}
