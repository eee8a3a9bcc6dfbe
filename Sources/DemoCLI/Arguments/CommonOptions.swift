import ConvoyTesting

/// The options every command accepts, and what they mean once parsed.
struct CommonOptions: Sendable {
  static let specs: [OptionSpec] = [
    .value("env", "NAME", "environment: local, staging, production or one from the config file"),
    .flag("simulate", "use the built-in simulated Places API instead of the environment's host"),
    .value("scenario", "NAME", "how the simulated API behaves (implies --simulate); see below"),
    .value(
      "config", "PATH", "environments file (default $XDG_CONFIG_HOME/democli/environments.json)"),
    .flag("verbose", "write the event log to standard error"),
    .flag("json", "write the result as JSON to standard output"),
    .flag("help", "show help for the command (also -h)"),
  ]

  /// The environment used when `--env` is not given.
  static let defaultEnvironment = "staging"

  var environmentName: String
  /// The simulated API's scenario; `nil` talks to the environment's real host.
  var scenario: SimulationScenario?
  var configPath: String?
  var isVerbose: Bool
  var isJSON: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    environmentName = arguments.value("env") ?? Self.defaultEnvironment
    configPath = arguments.value("config")
    isVerbose = arguments.flag("verbose")
    isJSON = arguments.flag("json")
    if let name = arguments.value("scenario") {
      guard let scenario = SimulationScenario(rawValue: name) else {
        throw .invalidValue(
          option: "--scenario", value: name,
          expected: "one of "
            + SimulationScenario.allCases.map(\.rawValue).joined(separator: ", "))
      }
      self.scenario = scenario
    } else {
      scenario = arguments.flag("simulate") ? .happy : nil
    }
  }
}
