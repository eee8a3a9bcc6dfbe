import Foundation

/// Jobs that outlive the process: each ``DurableJob`` is written to a journal on disk before
/// ``add(_:)`` returns, then its steps are sent in order, one job at a time, retried through
/// failures that say "not now", and resumed from the last finished step after the app was
/// killed.
///
/// ```swift
/// func placeOrder(on connection: ServerConnection) async throws {
///   let queue = DurableJobQueue(connection: connection, applicationName: "shop")
///   queue.register(PlaceOrder.self)
///   try await queue.start()
///   try await queue.add(DurableJob(steps: [.request(PlaceOrder(itemID: 7))]))
/// }
/// ```
///
/// What is guaranteed: a job ``add(_:)`` returned for is sent until it succeeds, fails for good
/// or expires, across crashes and restarts. A step whose answer was lost (the app died, the
/// connection broke after sending) is sent again: a step is delivered *at least once*. Steps of
/// methods that are not idempotent carry an `Idempotency-Key` that stays the same on every
/// attempt and after restarts, so a server that honours the key applies them *exactly once*; a
/// server that ignores it may apply such a step twice.
///
/// The journal (``RecordJournal``) holds requests and their bodies, never tokens: a step is
/// signed when it is sent, with the connection's session of that moment.
public final class DurableJobQueue: Sendable {
  private let connection: ServerConnection
  private let fileURL: URL
  private let state = Locked(State())

  /// The queue's mutable state, guarded by `state`.
  private struct State {
    var senders: [String: DurableStepSender] = [:]
    var journal: RecordJournal?
    /// Jobs not yet finished, in the order they were accepted.
    var pending: [PendingJob] = []
    /// Outcomes not yet forgotten, in the order the jobs finished.
    var outcomes: [DurableJobOutcome] = []
    var outcomeReaders: [UUID: AsyncStream<DurableJobOutcome>.Continuation] = [:]
    var runner: Task<Void, Never>?
    /// The runner, waiting for a job to be added.
    var idleRunner: CheckedContinuation<Void, Never>?
    /// How many records the journal holds beyond those a compaction would write.
    var obsoleteRecords = 0
  }

  /// A job and how far it got.
  private struct PendingJob {
    var job: DurableJob
    var nextStep = 0
    var attempts = 0
  }

  /// A queue that keeps its journal at `fileURL`.
  public init(connection: ServerConnection, fileURL: URL) {
    self.connection = connection
    self.fileURL = fileURL
  }

  /// A queue that keeps its journal at `<state directory>/<applicationName>/<name>.journal`,
  /// beside the saved session (``FileSessionStore/stateDirectory(environmentVariables:)``).
  public convenience init(
    connection: ServerConnection, applicationName: String, name: String = "jobs",
    environmentVariables: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let directory = FileSessionStore.stateDirectory(environmentVariables: environmentVariables)
      .appendingPathComponent(applicationName, isDirectory: true)
    self.init(connection: connection, fileURL: directory.appendingPathComponent("\(name).journal"))
  }

  deinit {
    state.withLock { $0.runner }?.cancel()
  }

  /// Lets jobs hold `type`'s requests: register every type before ``start()``, in every run of
  /// the app, so that jobs accepted by an earlier run can be sent.
  public func register<Request: DurableRequest>(_ type: Request.Type) {
    state.withLock { $0.senders[Request.durableName] = DurableStepSender(type) }
  }

  /// Opens the journal, takes up the jobs an earlier run left unfinished (in the order they were
  /// accepted, each from its last finished step) and starts sending.
  ///
  /// - Throws: ``DurableJobQueueError`` (``DurableJobQueueError/Kind/storage``) when the journal
  ///   cannot be read or written.
  public func start() async throws {
    let opened: (journal: RecordJournal, records: [Data], recovery: RecordJournal.Recovery?)
    do {
      opened = try RecordJournal.open(at: fileURL)
    } catch {
      throw DurableJobQueueError(.storage, detail: error.description)
    }
    let decoder = JSONDecoder()
    var replayed = State()
    var undecodable = 0
    for data in opened.records {
      guard let record = try? decoder.decode(DurableJobRecord.self, from: data) else {
        undecodable += 1
        continue
      }
      Self.apply(record, to: &replayed)
    }
    if opened.recovery != nil || undecodable > 0 {
      emit(
        .journalRepaired(
          .init(
            file: fileURL.lastPathComponent, droppedBytes: opened.recovery?.droppedBytes ?? 0,
            onlyAtTheEnd: opened.recovery?.reachesEnd ?? true, unreadableRecords: undecodable)))
    }
    for pending in replayed.pending {
      emit(.durableJob(.init(jobID: pending.job.id, change: .resumed, step: pending.nextStep)))
    }
    state.withLock { state in
      state.journal = opened.journal
      state.pending = replayed.pending
      state.outcomes = replayed.outcomes
      state.obsoleteRecords = opened.records.count
      state.runner?.cancel()
      state.runner = Task { [weak self] in await self?.run() }
    }
  }

  /// Stops sending: the step under way is cancelled, and every unfinished job stays in the
  /// journal for the next ``start()``.
  public func stop() {
    let (runner, idle, readers) = state.withLock { state in
      defer {
        state.runner = nil
        state.idleRunner = nil
        state.journal = nil
        state.outcomeReaders = [:]
      }
      return (state.runner, state.idleRunner, Array(state.outcomeReaders.values))
    }
    runner?.cancel()
    idle?.resume()
    for reader in readers { reader.finish() }
  }

  /// Accepts `job`: returns once it is on disk, so that it runs even if the app is killed a
  /// moment later.
  ///
  /// - Throws: ``DurableJobQueueError``: the queue is not started, the job has no steps, a step's
  ///   request type is not registered or does not decode, the job was added before, or the
  ///   journal could not be written (then the job is not accepted).
  public func add(_ job: DurableJob) async throws {
    guard !job.steps.isEmpty else { throw DurableJobQueueError(.noSteps) }
    let (journal, senders, known) = state.withLock {
      ($0.journal, $0.senders, $0.pending.contains { $0.job.id == job.id })
    }
    guard let journal else { throw DurableJobQueueError(.notStarted) }
    guard !known else { throw DurableJobQueueError(.duplicateJob(job.id)) }
    for step in job.steps {
      guard let sender = senders[step.requestName] else {
        throw DurableJobQueueError(.unregisteredRequest(name: step.requestName))
      }
      guard sender.decodes(step.request) else {
        throw DurableJobQueueError(.undecodableRequest(name: step.requestName))
      }
    }
    try write(.accepted(job), to: journal)
    emit(.durableJob(.init(jobID: job.id, change: .accepted)))
    let idle = state.withLock { state in
      state.pending.append(PendingJob(job: job))
      defer { state.idleRunner = nil }
      return state.idleRunner
    }
    idle?.resume()
  }

  /// The jobs not finished yet, in the order they will run.
  public var unfinishedJobs: [DurableJob] {
    state.withLock { $0.pending.map(\.job) }
  }

  /// The outcomes kept so far (those of earlier runs of the app too, until forgotten), then each
  /// new one as its job ends. The sequence ends when the queue stops.
  public func outcomes() -> AsyncStream<DurableJobOutcome> {
    let (stream, continuation) = AsyncStream.makeStream(of: DurableJobOutcome.self)
    let id = UUID()
    let running = state.withLock {
      for outcome in $0.outcomes { continuation.yield(outcome) }
      guard $0.journal != nil else { return false }
      $0.outcomeReaders[id] = continuation
      return true
    }
    if !running { continuation.finish() }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.outcomeReaders.removeValue(forKey: id) }
    }
    return stream
  }

  /// Drops the kept outcome of job `id`: the app has acted on it.
  public func forgetOutcome(of id: UUID) async throws {
    let journal = state.withLock { $0.journal }
    guard let journal else { throw DurableJobQueueError(.notStarted) }
    try write(.forgotten(job: id), to: journal)
    state.withLock { $0.outcomes.removeAll { $0.jobID == id } }
    compactIfWorthIt()
  }

  // MARK: - Running

  /// Sends the jobs one after the other, for as long as the queue runs.
  private func run() async {
    while !Task.isCancelled {
      guard let next = state.withLock({ $0.pending.first }) else {
        await withCheckedContinuation { continuation in
          let hasWork = state.withLock {
            guard $0.pending.isEmpty, $0.journal != nil else { return true }
            $0.idleRunner = continuation
            return false
          }
          if hasWork { continuation.resume() }
        }
        continue
      }
      await send(next)
    }
  }

  /// Sends `pending`'s remaining steps; returns when the job ended or the queue stopped.
  private func send(_ pending: PendingJob) async {
    var pending = pending
    let job = pending.job
    let clock = connection.configuration.clock
    if let notBefore = job.constraints.notBefore, notBefore > clock.now {
      do { try await clock.sleep(until: notBefore) } catch { return }
    }
    while pending.nextStep < job.steps.count {
      if let expiresAt = job.constraints.expiresAt, clock.now >= expiresAt {
        return finish(job.id, .expired)
      }
      let step = job.steps[pending.nextStep]
      guard let sender = state.withLock({ $0.senders[step.requestName] }) else {
        // Registered when the job was accepted, but not in this run of the app.
        return finish(
          job.id,
          .failed(
            step: pending.nextStep, category: .invalidRequest,
            message: "This app no longer knows how to send “\(step.requestName)”."))
      }
      do {
        try await sender.send(step, on: connection)
        pending.nextStep += 1
        pending.attempts = 0
        record(.stepFinished(job: job.id, step: pending.nextStep - 1), updating: pending)
        emit(.durableJob(.init(jobID: job.id, change: .stepFinished, step: pending.nextStep - 1)))
      } catch {
        if Task.isCancelled || error.isCancellation { return }
        let category = ErrorMessageProvider.category(of: error)
        pending.attempts += 1
        guard Self.transientCategories.contains(category),
          pending.attempts < job.constraints.maximumAttempts
        else {
          let message = ErrorMessageProvider.standard.message(for: error)?.text ?? "\(error)"
          return finish(
            job.id, .failed(step: pending.nextStep, category: category, message: message),
            attempts: pending.attempts)
        }
        record(
          .attemptFailed(job: job.id, step: pending.nextStep, attempts: pending.attempts),
          updating: pending)
        var delay = min(
          job.constraints.baseDelay * pow(2, Double(pending.attempts - 1)),
          job.constraints.maximumDelay)
        if let expiresAt = job.constraints.expiresAt {
          delay = min(delay, max(expiresAt.timeIntervalSince(clock.now), 0))
        }
        emit(
          .durableJob(
            .init(
              jobID: job.id, change: .retrying, step: pending.nextStep,
              attempts: pending.attempts, delay: delay, errorCategory: category)))
        do { try await clock.sleep(for: delay) } catch { return }
      }
    }
    finish(job.id, .succeeded)
  }

  /// Failures that say "not now" rather than "no": the job waits and tries again.
  private static let transientCategories: Set<ErrorCategory> = [
    .offline, .serverUnreachable, .timedOut, .rateLimited, .serverFailure,
  ]

  /// Writes `record` about the job `pending` is, and keeps `pending` as its state. A journal
  /// that cannot be written now does not stop the job: the worst a lost progress record costs
  /// is a step sent again after a restart, which its idempotency key covers.
  private func record(_ record: DurableJobRecord, updating pending: PendingJob) {
    if let journal = state.withLock({ $0.journal }) { try? write(record, to: journal) }
    state.withLock {
      if let index = $0.pending.firstIndex(where: { $0.job.id == pending.job.id }) {
        $0.pending[index] = pending
      }
    }
  }

  /// Ends job `id` with `ending`: written down, kept, and handed to the outcome readers.
  private func finish(_ id: UUID, _ ending: DurableJobOutcome.Ending, attempts: Int? = nil) {
    let outcome = DurableJobOutcome(
      jobID: id, ending: ending, finishedAt: connection.configuration.clock.now)
    if let journal = state.withLock({ $0.journal }) { try? write(.finished(outcome), to: journal) }
    let readers = state.withLock {
      $0.pending.removeAll { $0.job.id == id }
      $0.outcomes.append(outcome)
      return Array($0.outcomeReaders.values)
    }
    for reader in readers { reader.yield(outcome) }
    switch ending {
    case .succeeded: emit(.durableJob(.init(jobID: id, change: .succeeded)))
    case .expired: emit(.durableJob(.init(jobID: id, change: .expired)))
    case .failed(let step, let category, _):
      emit(
        .durableJob(
          .init(
            jobID: id, change: .failed, step: step, attempts: attempts, errorCategory: category)))
    }
    compactIfWorthIt()
  }

  /// Hands an event to the connection's observers.
  private func emit(_ kind: ConvoyEvent.Kind) {
    let event = ConvoyEvent(kind, date: connection.configuration.clock.now)
    for observer in connection.observers { observer.receive(event) }
  }

  // MARK: - The journal

  private func write(_ record: DurableJobRecord, to journal: RecordJournal) throws {
    do {
      try journal.append(try JSONEncoder().encode(record))
      state.withLock { $0.obsoleteRecords += 1 }
    } catch let failure as RecordJournal.Failure {
      throw DurableJobQueueError(.storage, detail: failure.description)
    }
  }

  /// Writes the journal again with only what the state needs, once most of its records are
  /// history.
  private func compactIfWorthIt() {
    let (journal, records) = state.withLock { state -> (RecordJournal?, [DurableJobRecord]) in
      let live = Self.records(describing: state)
      guard state.obsoleteRecords > 64, state.obsoleteRecords > 4 * live.count else {
        return (nil, [])
      }
      state.obsoleteRecords = live.count
      return (state.journal, live)
    }
    guard let journal else { return }
    let encoder = JSONEncoder()
    try? journal.replace(with: records.compactMap { try? encoder.encode($0) })
  }

  /// The fewest records that give `state` back when replayed.
  private static func records(describing state: State) -> [DurableJobRecord] {
    var records: [DurableJobRecord] = []
    for pending in state.pending {
      records.append(.accepted(pending.job))
      for step in 0..<pending.nextStep {
        records.append(.stepFinished(job: pending.job.id, step: step))
      }
      if pending.attempts > 0 {
        records.append(
          .attemptFailed(job: pending.job.id, step: pending.nextStep, attempts: pending.attempts))
      }
    }
    for outcome in state.outcomes { records.append(.finished(outcome)) }
    return records
  }

  /// Replays `record` onto `state`.
  private static func apply(_ record: DurableJobRecord, to state: inout State) {
    switch record {
    case .accepted(let job):
      state.pending.append(PendingJob(job: job))
    case .stepFinished(let id, let step):
      guard let index = state.pending.firstIndex(where: { $0.job.id == id }) else { return }
      state.pending[index].nextStep = max(state.pending[index].nextStep, step + 1)
      state.pending[index].attempts = 0
    case .attemptFailed(let id, let step, let attempts):
      guard let index = state.pending.firstIndex(where: { $0.job.id == id }),
        state.pending[index].nextStep == step
      else { return }
      state.pending[index].attempts = attempts
    case .finished(let outcome):
      state.pending.removeAll { $0.job.id == outcome.jobID }
      state.outcomes.append(outcome)
    case .forgotten(let id):
      state.outcomes.removeAll { $0.jobID == id }
    }
  }
}
