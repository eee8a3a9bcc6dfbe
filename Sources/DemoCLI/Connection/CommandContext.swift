import Convoy
import ConvoyTesting
import Foundation

/// Everything a command needs: its arguments, the chosen environment, where output goes, and a
/// way to run cancellable work.
struct CommandContext: Sendable {
  /// The name sessions are filed under: `$XDG_STATE_HOME/democli/session-<env>.json`.
  static let applicationName = "democli"

  let arguments: ParsedArguments
  let options: CommonOptions
  let environments: Environments
  let environmentVariables: [String: String]
  let interruption: Interruption
  let output: Output
  let runner: JobRunner
  /// The `--verbose` event log, if asked for.
  let eventLog: (any EventObserver)?

  init(
    arguments: ParsedArguments, environmentVariables: [String: String],
    interruption: Interruption
  ) throws {
    self.arguments = arguments
    self.environmentVariables = environmentVariables
    self.interruption = interruption
    options = try CommonOptions(arguments)
    environments = try Environments.load(
      configPath: options.configPath, environmentVariables: environmentVariables)
    output = Output(isJSON: options.isJSON)
    runner = JobRunner(interruption: interruption)
    eventLog = options.isVerbose ? Self.eventLog(isJSON: options.isJSON) : nil
  }

  /// With `--json` the event log is JSON lines too, so everything democli writes can be parsed.
  private static func eventLog(isJSON: Bool) -> any EventObserver {
    isJSON ? JSONLinesLogger(fileHandle: .standardError) : ConsoleLogger(level: .debug)
  }

  /// The environment `--env` names.
  func environment() throws(UsageError) -> Environments.Entry {
    try environments.entry(named: options.environmentName)
  }

  /// Where the chosen environment's session is saved.
  func sessionStore() throws(UsageError) -> FileSessionStore {
    FileSessionStore(
      applicationName: Self.applicationName,
      environment: ServerEnvironment(rawValue: try environment().name),
      environmentVariables: environmentVariables)
  }

  /// A connection to the chosen environment, or to the simulator standing in for it.
  ///
  /// - Parameters:
  ///   - restoringSession: Whether to install the environment's saved session; `login` does
  ///     not, so that a saved session that cannot be read never stands in its way.
  ///   - observers: Observers besides the `--verbose` log, e.g. `watch`'s reconnection notes.
  ///   - photoBytesPerSecond: The simulated photo's pace (`download --rate`).
  ///   - network: The simulated network (`queue --offline`): its monitor tells the connection
  ///     whether the network is there, and calls fail while it is not.
  func connection(
    restoringSession: Bool = true, observers: [any EventObserver] = [],
    photoBytesPerSecond: Int? = nil, network: SimulatedNetwork? = nil
  ) throws -> ServerConnection {
    let entry = try environment()
    let store = try sessionStore()
    // DEMOCLI_SLOW_DELAY stretches the `slow` scenario's answers, for tests that must interrupt
    // a request in flight on a machine too busy to do it within the default 1.5 seconds.
    let slowDelay = environmentVariables["DEMOCLI_SLOW_DELAY"].flatMap(TimeInterval.init) ?? 1.5
    var transport: (any HTTPTransport)? = options.scenario.map {
      SimulatedPlacesAPI(
        scenario: $0, slowDelay: slowDelay, photoBytesPerSecond: photoBytesPerSecond,
        notes: SimulatedNotes(fileURL: simulatedNotesFile))
    }
    if let network, let simulated = transport { transport = network.gate(simulated) }
    if let eventLog {
      let simulation = options.scenario.map { " (simulated, scenario \($0.rawValue))" } ?? ""
      eventLog.receive(
        .notice(
          "environment \(entry.name) at \(entry.baseURL.absoluteString)\(simulation); "
            + "session file \(store.fileURL.path)"))
    }
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: ServerEnvironment(rawValue: entry.name), baseURL: entry.baseURL,
        timeout: 30,
        authentication: standardClient.map { AuthenticationConfiguration(client: $0) }
          ?? SimulatedPlacesAPI.authentication),
      transport: transport, sessionStore: store,
      observers: verboseObservers + observers, connectivityMonitor: network?.connectivity)
    if restoringSession { try connection.restoreSession() }
    return connection
  }

  /// Where the simulator keeps the notes it was sent, so that it remembers them (and the
  /// idempotency keys it honoured) from one democli run to the next, as a real server would.
  var simulatedNotesFile: URL {
    FileSessionStore.stateDirectory(environmentVariables: environmentVariables)
      .appendingPathComponent(Self.applicationName, isDirectory: true)
      .appendingPathComponent("simulated-notes.json")
  }

  /// The `--verbose` log and, in text mode, a timing line per call.
  private var verboseObservers: [any EventObserver] {
    guard let eventLog else { return [] }
    return options.isJSON ? [eventLog] : [eventLog, CallTimingLog()]
  }

  /// The environment's OAuth2 client when it describes a standard server and the simulator does
  /// not stand in for it; otherwise the demo API's own client.
  var standardClient: OAuthClient? {
    guard options.scenario == nil else { return nil }
    return try? environment().oauth
  }

  /// Runs `body` with a progress line labelled `label`, removed before `body`'s result is
  /// printed.
  func withProgress<Result>(
    _ label: String, _ body: (ProgressLine) async throws -> Result
  ) async rethrows -> Result {
    let progress = ProgressLine(label, interruption: interruption)
    defer { progress.finish() }
    return try await body(progress)
  }

  /// ` (simulated)` after an environment's name when the simulator stands in for it.
  var simulationSuffix: String {
    options.scenario.map { $0 == .happy ? " (simulated)" : " (simulated, \($0.rawValue))" } ?? ""
  }
}
