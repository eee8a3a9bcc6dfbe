import Foundation

/// Where a command's results go: lines for people, or with `--json` one JSON document on
/// standard output for scripts. Notes and failures go to standard error either way, so standard
/// output holds only the result.
struct Output: Sendable {
  /// Whether `--json` was given.
  let isJSON: Bool

  /// Writes the result: `human` lines, or `json` (a JSON-serialisable value) with `--json`.
  func result(human: @autoclosure () -> String, json: @autoclosure () -> Any) {
    if isJSON {
      Terminal.writeOutput(Self.encode(json()) + "\n")
    } else {
      let text = human()
      Terminal.writeOutput(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
    }
  }

  /// Writes one line of a result that goes on: `human`, or with `--json` `json` as one compact
  /// JSON object (JSON Lines, so a script can read each line as it comes).
  func line(human: @autoclosure () -> String, json: @autoclosure () -> Any) {
    guard isJSON else { return Terminal.writeOutput(human() + "\n") }
    let value = json()
    guard JSONSerialization.isValidJSONObject(value),
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return Terminal.writeOutput("null\n") }
    Terminal.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
  }

  /// Writes a note for people on standard error, e.g. which demo user the simulator used.
  func note(_ text: String) {
    Terminal.writeError(text + "\n")
  }

  /// JSON text with sorted keys, so output is stable for scripts and tests.
  static func encode(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject(value),
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }

  /// `value`, or JSON `null`.
  static func nullable(_ value: Any?) -> Any {
    value ?? NSNull()
  }

  /// A date as ISO 8601 with seconds, in UTC: what `--json` and the human lines show.
  static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
  }
}
