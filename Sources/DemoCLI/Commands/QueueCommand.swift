import Convoy
import ConvoyTesting
import Foundation

/// `democli queue`: notes about places, kept on disk until the server has them.
///
/// `add` only writes the note to the queue's journal (it is safe the moment the command
/// returns, network or not); `run` delivers what is queued, waiting for the network when it is
/// down; `list` shows what waits and what was delivered. A `run` killed in the middle of a
/// delivery loses nothing: the next `run` sends the note again with the same `Idempotency-Key`,
/// and the server applies it once.
enum QueueCommand: Command {
  static let spec = CommandSpec(
    name: "queue", summary: "queue notes about places; deliver them when the network is there",
    options: [
      .flag("offline", "simulate a network that is down (with --simulate)"),
      .value(
        "online-after", "SECONDS",
        "with --offline: the simulated network comes back after SECONDS (run only)"),
    ],
    arguments: [
      .init(name: "action", help: "add, list or run"),
      .init(name: "place", isOptional: true, help: "add: the place's number"),
      .init(name: "text", isOptional: true, help: "add: the note"),
    ],
    discussion: """
      add PLACE TEXT   writes the note to the queue (a journal in the state directory) and
                       returns: it is kept even if the network is down or democli is killed.
      list             the notes waiting, then those delivered and not yet shown by run.
      run              delivers the queued notes in order, waiting for the network while it is
                       down, and prints each outcome as it comes; Ctrl-C stops and keeps the rest.

      Each note carries an Idempotency-Key fixed when it was added: a run killed after sending a
      note but before hearing back sends it again with the same key, and a server that honours
      keys (the simulator does) applies it once.

      Examples:
        democli queue add 3 "Lovely at sunset" --simulate --offline
        democli queue list --simulate
        democli queue run --simulate --offline --online-after 2
      """)

  static func run(_ context: CommandContext) async throws {
    let positionals = context.arguments.positionals
    let offline = context.arguments.flag("offline")
    if offline, context.options.scenario == nil {
      throw UsageError.invalidValue(
        option: "--offline", value: "", expected: "--simulate (it simulates the network)")
    }
    let network = context.options.scenario.map { _ in SimulatedNetwork(offline: offline) }
    let connection = try context.connection(network: network)
    let queue = DurableJobQueue(
      connection: connection, applicationName: CommandContext.applicationName,
      name: "queue-\(try context.environment().name)",
      environmentVariables: context.environmentVariables)
    queue.register(PostNoteRequest.self)
    try await queue.start()
    defer { queue.stop() }
    switch positionals[0] {
    case "add":
      try await add(positionals.dropFirst(), to: queue, context: context, isOffline: offline)
    case "list":
      try await list(queue, context: context)
    case "run":
      let onlineAfter = try seconds(context.arguments.value("online-after"))
      if let onlineAfter, let network {
        Task {
          try await Task.sleep(for: .seconds(onlineAfter))
          network.comeBack()
        }
      }
      try await deliver(queue, context: context, network: network)
    default:
      throw UsageError.invalidValue(
        option: "<action>", value: positionals[0], expected: "add, list or run")
    }
  }

  private static func add(
    _ arguments: ArraySlice<String>, to queue: DurableJobQueue, context: CommandContext,
    isOffline: Bool
  ) async throws {
    let values = Array(arguments)
    guard values.count == 2 else { throw UsageError.missingArgument("place", command: "queue add") }
    guard let place = Int(values[0]), place > 0 else {
      throw UsageError.invalidValue(
        option: "<place>", value: values[0], expected: "a positive number")
    }
    let job = try DurableJob(steps: [.request(PostNoteRequest(place: place, text: values[1]))])
    try await queue.add(job)
    let id = shortID(job.id)
    context.output.result(
      human: "Queued note \(id) for place \(place)"
        + (isOffline ? " (offline: `democli queue run` delivers it once the network is back)" : ""),
      json: ["job": job.id.uuidString.lowercased(), "place": place, "state": "queued"])
  }

  private static func list(_ queue: DurableJobQueue, context: CommandContext) async throws {
    let waiting = try await queue.unfinishedJobs()
    let delivered = try await queue.keptOutcomes()
    let rows = waiting.map { job in
      (job.id, "waiting", describe(job))
    }
    let ended = delivered.map { ($0.jobID, state(of: $0), "") }
    let all = rows + ended
    context.output.result(
      human: all.isEmpty
        ? "The queue is empty."
        : all.map {
          "\(shortID($0.0))  \($0.1.padding(toLength: 9, withPad: " ", startingAt: 0))  \($0.2)"
        }
        .joined(separator: "\n"),
      json: all.map { ["job": $0.0.uuidString.lowercased(), "state": $0.1, "note": $0.2] })
  }

  /// Runs the queue until nothing waits, printing each outcome and forgetting it once shown.
  private static func deliver(
    _ queue: DurableJobQueue, context: CommandContext, network: SimulatedNetwork?
  ) async throws {
    let waiting = try await queue.unfinishedJobs()
    var keys: [UUID: String] = [:]
    for job in waiting { keys[job.id] = job.steps.first?.idempotencyKey }
    // Outcomes an earlier run had not shown yet (it was stopped before it could).
    for outcome in try await queue.keptOutcomes() {
      show(outcome, key: nil, context: context)
      try await queue.forgetOutcome(of: outcome.jobID)
    }
    guard !waiting.isEmpty else { return context.output.note("Nothing waits in the queue.") }
    if network?.connectivity.connectivity == .offline {
      context.output.note(
        "Offline: \(waiting.count) \(waiting.count == 1 ? "note waits" : "notes wait") for the network…"
      )
    }
    let work = Task {
      for await outcome in queue.outcomes() {
        show(outcome, key: keys[outcome.jobID], context: context)
        try await queue.forgetOutcome(of: outcome.jobID)
        if try await queue.unfinishedJobs().isEmpty { return }
      }
    }
    try await context.interruption.cancelling(
      with: {
        queue.stop()
        work.cancel()
      }, during: { try await work.value })
    if context.interruption.wasInterrupted {
      context.output.note("Interrupted: the notes not delivered stay queued.")
      throw CancellationError()
    }
  }

  private static func show(_ outcome: DurableJobOutcome, key: String?, context: CommandContext) {
    var detail = ""
    if case .failed(_, _, let message) = outcome.ending { detail = " — \(message)" }
    // The simulator keeps its notes in a file: say which note it made, and how many times it
    // applied the note's key (once, however often it was sent).
    if context.options.scenario != nil, let key {
      let applied = SimulatedNotes(fileURL: context.simulatedNotesFile).all
        .filter { $0.idempotencyKey == key }
      if let note = applied.first {
        detail =
          " as note #\(note.id) (the server applied it \(applied.count == 1 ? "once" : "\(applied.count) times"))"
      }
    }
    context.output.line(
      human: "\(shortID(outcome.jobID))  \(state(of: outcome))\(detail)",
      json: ["job": outcome.jobID.uuidString.lowercased(), "state": state(of: outcome)])
  }

  private static func describe(_ job: DurableJob) -> String {
    guard let request = job.steps.first?.request(as: PostNoteRequest.self) else { return "" }
    return "place \(request.place): \"\(request.text)\""
  }

  private static func state(of outcome: DurableJobOutcome) -> String {
    switch outcome.ending {
    case .succeeded: "delivered"
    case .failed: "failed"
    case .expired: "expired"
    }
  }

  private static func shortID(_ id: UUID) -> String {
    String(id.uuidString.lowercased().prefix(8))
  }

  private static func seconds(_ text: String?) throws(UsageError) -> Double? {
    guard let text else { return nil }
    guard let value = Double(text), value >= 0 else {
      throw .invalidValue(option: "--online-after", value: text, expected: "seconds, 0 or more")
    }
    return value
  }
}
