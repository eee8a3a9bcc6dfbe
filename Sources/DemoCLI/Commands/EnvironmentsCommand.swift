import Foundation

/// `democli environments`: every environment's name and URL, and where each came from.
enum EnvironmentsCommand: Command {
  static let spec = CommandSpec(
    name: "environments", summary: "list the environments and their URLs",
    discussion: """
      Add or move environments in the config file (see --config):
        {"environments": {"qa": "https://qa.example.com/api/"}}
      Any environment works with --simulate, whatever its URL.
      """)

  static func run(_ context: CommandContext) async throws {
    let environments = context.environments
    let file = environments.configFile.path
    let fileExists = FileManager.default.fileExists(atPath: file)
    let nameWidth = environments.entries.map(\.name.count).max() ?? 0
    let lines = environments.entries.map { entry in
      let name = entry.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      let source = entry.source == .configFile ? "  (config file)" : ""
      return "\(name)  \(entry.baseURL.absoluteString)\(source)"
    }
    let fileLine = "Config file: \(file)\(fileExists ? "" : " (not present)")"
    context.output.result(
      human: (lines + ["", fileLine]).joined(separator: "\n"),
      json: [
        "configFile": file, "configFileExists": fileExists,
        "environments": environments.entries.map { entry in
          [
            "name": entry.name, "url": entry.baseURL.absoluteString,
            "source": entry.source.rawValue,
          ]
        },
      ])
  }
}
