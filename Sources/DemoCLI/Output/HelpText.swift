import ConvoyTesting
import Foundation

/// The text of `--help`, built from the command specs so that help and parsing never disagree.
enum HelpText {
  static func general(_ commands: [CommandSpec]) -> String {
    let commandRows = commands.map { ($0.name, $0.summary) }
    return """
      democli: a small client for the Places API, built on Convoy.

      Usage: democli <command> [options]

      Commands:
      \(rows(commandRows))

      Options every command accepts:
      \(rows(CommonOptions.specs.map { ($0.synopsis, $0.help) }))

      Scenarios for --scenario:
      \(rows(SimulationScenario.allCases.map { ($0.rawValue, $0.summary) }))

      Exit codes:
      \(rows(exitCodes))

      Sessions are saved per environment in $XDG_STATE_HOME/democli/session-<env>.json
      (default ~/.local/state), readable by you only. Run 'democli <command> --help' for details.

      Start here: democli login --env staging --simulate && democli places --env staging --simulate

      """
  }

  static func command(_ command: CommandSpec) -> String {
    let arguments = command.arguments.map { $0.isOptional ? "[\($0.name)]" : "<\($0.name)>" }
    var text = """
      Usage: democli \(([command.name] + arguments).joined(separator: " ")) [options]

      \(capitalized(command.summary)).

      """
    if !command.arguments.isEmpty {
      text += "\nArguments:\n" + rows(command.arguments.map { ($0.name, $0.help) }) + "\n"
    }
    if !command.options.isEmpty {
      text += "\nOptions:\n" + rows(command.options.map { ($0.synopsis, $0.help) }) + "\n"
    }
    text += "\nCommon options:\n" + rows(CommonOptions.specs.map { ($0.synopsis, $0.help) })
    text +=
      "\n  (scenarios: \(SimulationScenario.allCases.map(\.rawValue).joined(separator: ", ")))\n"
    if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
    return text
  }

  private static let exitCodes = ExitCode.allCases.map { (String($0.rawValue), $0.summary) }

  private static func rows(_ rows: [(String, String)]) -> String {
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }

  private static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }
}
