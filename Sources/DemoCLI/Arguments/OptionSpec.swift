/// An option a command accepts: `--name VALUE` or, without a value name, a boolean `--name`.
struct OptionSpec: Sendable, Hashable {
  /// The name without dashes, e.g. `"env"`.
  var name: String
  /// What the value is called in help, e.g. `"NAME"`; `nil` for a boolean flag.
  var valueName: String?
  /// One line for `--help`.
  var help: String

  var takesValue: Bool { valueName != nil }

  /// `--env NAME` or `--json`, as help shows it.
  var synopsis: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }

  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help)
  }
}
