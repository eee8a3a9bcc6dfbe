import ConvoyTestSupport
import Foundation
import Testing

/// A private home for democli runs: its own state and config directories, so tests never touch
/// the real home and never see each other's sessions.
final class DemoCLISandbox: Sendable {
  let directory: URL
  /// Variables set for every run on top of the sandbox's own.
  let extraEnvironment: [String: String]

  init(extraEnvironment: [String: String] = [:]) throws {
    self.extraEnvironment = extraEnvironment
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("democli-tests-\(UUID().uuidString)", isDirectory: true)
    for name in ["state", "config", "home", "io"] {
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  var stateDirectory: URL { directory.appendingPathComponent("state") }
  var configDirectory: URL { directory.appendingPathComponent("config") }

  /// Where democli saves the session of `environment`.
  func sessionFile(_ environment: String = "staging") -> URL {
    stateDirectory.appendingPathComponent("democli/session-\(environment).json")
  }

  /// Writes the default environments file.
  func writeConfig(_ json: String) throws {
    let file = configDirectory.appendingPathComponent("democli/environments.json")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(json.utf8).write(to: file)
  }

  /// Starts democli with `arguments`.
  func start(_ arguments: [String], standardInput: String? = nil) throws -> RunningDemoCLI {
    try start(arguments, streams: .files(standardInput: standardInput))
  }

  /// Starts democli with `arguments` on `terminal`.
  func start(_ arguments: [String], terminal: PseudoTerminal) throws -> RunningDemoCLI {
    try start(arguments, streams: .terminal(terminal))
  }

  private func start(_ arguments: [String], streams: RunningDemoCLI.Streams) throws
    -> RunningDemoCLI
  {
    try RunningDemoCLI(
      executable: try DemoCLIBinary.url(), arguments: arguments, environment: environment,
      streams: streams, directory: directory.appendingPathComponent("io"))
  }

  /// Runs democli with `arguments` to the end.
  func run(_ arguments: String..., standardInput: String? = nil) async throws -> DemoCLIResult {
    try await run(arguments, standardInput: standardInput)
  }

  /// Runs democli with `arguments` to the end.
  func run(_ arguments: [String], standardInput: String? = nil) async throws -> DemoCLIResult {
    try await ProcessGate.shared.withSlot {
      try await self.start(arguments, standardInput: standardInput).result()
    }
  }

  private var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = stateDirectory.path
    environment["XDG_CONFIG_HOME"] = configDirectory.path
    environment["HOME"] = directory.appendingPathComponent("home").path
    environment.merge(extraEnvironment) { _, extra in extra }
    return environment
  }
}

/// The democli executable SwiftPM built next to the test bundle.
enum DemoCLIBinary {
  static func url() throws -> URL { try BuiltExecutable.url(named: "democli") }
}
