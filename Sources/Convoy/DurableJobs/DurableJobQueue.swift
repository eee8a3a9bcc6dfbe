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
/// The jobs are kept by a ``DurableJobStore``: by default a journal file for this process
/// (``JournalJobStore``); a store several processes share lets them drain one queue. Stores hold
/// requests and their bodies, never tokens: a step is signed when it is sent, with the
/// connection's session of that moment.
public final class DurableJobQueue: Sendable {
  private let connection: ServerConnection
  /// Where the jobs are kept.
  public let store: any DurableJobStore
  /// How long a claim on a job lasts before it is renewed; a shared store lets another process
  /// take the job up once a claim runs out (this one died).
  public let claimDuration: TimeInterval
  private let state = Locked(State())

  /// The queue's mutable state, guarded by `state`.
  private struct State {
    /// Resumable uploads need no registration: every queue can send them.
    var senders: [String: DurableStepSender] = [
      ResumableUpload.requestName: ResumableUpload.sender
    ]
    var isStarted = false
    var outcomeReaders: [UUID: AsyncStream<DurableJobOutcome>.Continuation] = [:]
    var runner: Task<Void, Never>?
    /// The runner, waiting for a job to be added.
    var idleRunner: CheckedContinuation<Void, Never>?
    /// Set when a job is added while the runner is busy: it looks again before it waits.
    var jobsAdded = false
  }

  /// A queue that keeps its jobs in `store`.
  public init(
    connection: ServerConnection, store: any DurableJobStore, claimDuration: TimeInterval = 60
  ) {
    self.connection = connection
    self.store = store
    self.claimDuration = claimDuration
  }

  /// A queue that keeps its jobs in a journal at `fileURL` (``JournalJobStore``).
  public convenience init(connection: ServerConnection, fileURL: URL) {
    self.init(connection: connection, store: JournalJobStore(fileURL: fileURL))
  }

  /// A queue that keeps its jobs in a journal at
  /// `<state directory>/<applicationName>/<name>.journal`, beside the saved session
  /// (``FileSessionStore/stateDirectory(environmentVariables:)``).
  public convenience init(
    connection: ServerConnection, applicationName: String, name: String = "jobs",
    environmentVariables: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let directory = FileSessionStore.stateDirectory(environmentVariables: environmentVariables)
      .appendingPathComponent(applicationName, isDirectory: true)
    self.init(connection: connection, fileURL: directory.appendingPathComponent("\(name).journal"))
  }

  /// Lets jobs hold `type`'s requests: register every type before ``start()``, in every run of
  /// the app, so that jobs accepted by an earlier run can be sent.
  public func register<Request: DurableRequest>(_ type: Request.Type) {
    state.withLock { $0.senders[Request.durableName] = DurableStepSender(type) }
  }

  /// Opens the store, takes up the jobs an earlier run left unfinished (in the order they were
  /// accepted, each from its last finished step) and starts sending.
  ///
  /// - Throws: ``DurableJobQueueError``: ``DurableJobQueueError/Kind/storage`` when the store
  ///   cannot be read, ``DurableJobQueueError/Kind/inUse`` when another process has its journal.
  public func start() async throws {
    let opening = try await store.open()
    if let repair = opening.repair { emit(.journalRepaired(repair)) }
    for resumed in opening.resumed {
      emit(.durableJob(.init(jobID: resumed.id, change: .resumed, step: resumed.nextStep)))
    }
    state.withLock { state in
      state.isStarted = true
      state.runner?.cancel()
      // The runner holds the queue while it runs: ``stop()`` ends it.
      state.runner = Task { await self.run() }
    }
  }

  /// Stops sending: the step under way is cancelled, and every unfinished job stays in the
  /// store for the next ``start()``. The outcome sequences end.
  public func stop() {
    let (runner, idle, readers) = state.withLock { state in
      defer {
        state.isStarted = false
        state.runner = nil
        state.idleRunner = nil
        state.outcomeReaders = [:]
      }
      return (state.runner, state.idleRunner, Array(state.outcomeReaders.values))
    }
    runner?.cancel()
    idle?.resume()
    for reader in readers { reader.finish() }
    (store as? JournalJobStore)?.close()
  }

  /// Accepts `job`: returns once it is kept durably, so that it runs even if the app is killed a
  /// moment later.
  ///
  /// - Throws: ``DurableJobQueueError``: the queue is not started, the job has no steps, a step's
  ///   request type is not registered or does not decode, the job was added before, or the
  ///   store could not keep it (then the job is not accepted).
  public func add(_ job: DurableJob) async throws {
    try await add(contentsOf: [job])
  }

  /// Accepts `jobs`, all or none, in one write to the store: faster than adding them one by
  /// one, and a crash cannot keep some of them and lose the others. They run in their order,
  /// after the jobs added before.
  ///
  /// ```swift
  /// func placeOrders(_ itemIDs: [Int], in queue: DurableJobQueue) async throws {
  ///   try await queue.add(
  ///     contentsOf: itemIDs.map { try DurableJob(steps: [.request(PlaceOrder(itemID: $0))]) })
  /// }
  /// ```
  ///
  /// - Throws: ``DurableJobQueueError`` as ``add(_:)`` does, for the first job that cannot be
  ///   accepted; then none is.
  public func add(contentsOf jobs: [DurableJob]) async throws {
    let (isStarted, senders) = state.withLock { ($0.isStarted, $0.senders) }
    guard isStarted else { throw DurableJobQueueError(.notStarted) }
    for job in jobs {
      guard !job.steps.isEmpty else { throw DurableJobQueueError(.noSteps) }
      for step in job.steps {
        guard let sender = senders[step.requestName] else {
          throw DurableJobQueueError(.unregisteredRequest(name: step.requestName))
        }
        guard sender.decodes(step.request) else {
          throw DurableJobQueueError(.undecodableRequest(name: step.requestName))
        }
      }
    }
    guard !jobs.isEmpty else { return }
    try await store.accept(jobs)
    for job in jobs { emit(.durableJob(.init(jobID: job.id, change: .accepted))) }
    let idle = state.withLock { state in
      state.jobsAdded = true
      defer { state.idleRunner = nil }
      return state.idleRunner
    }
    idle?.resume()
  }

  /// The jobs not finished yet, in the order they will run.
  public func unfinishedJobs() async throws -> [DurableJob] {
    try await store.unfinishedJobs()
  }

  /// The outcomes kept so far (those of earlier runs of the app too, until forgotten), then each
  /// new one as a job of this queue ends. The sequence ends when the queue stops.
  public func outcomes() -> AsyncStream<DurableJobOutcome> {
    let (stream, continuation) = AsyncStream.makeStream(of: DurableJobOutcome.self)
    let id = UUID()
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.outcomeReaders.removeValue(forKey: id) }
    }
    Task {
      // Registered before the kept outcomes are read, so that none ends in between unseen;
      // one that ends meanwhile may come twice, and readers key outcomes by job.
      let running = state.withLock { state in
        guard state.isStarted else { return false }
        state.outcomeReaders[id] = continuation
        return true
      }
      for outcome in (try? await store.outcomes()) ?? [] { continuation.yield(outcome) }
      if !running { continuation.finish() }
    }
    return stream
  }

  /// The outcomes kept so far, those of earlier runs of the app too, until forgotten.
  public func keptOutcomes() async throws -> [DurableJobOutcome] {
    try await store.outcomes()
  }

  /// Drops the kept outcome of job `id`: the app has acted on it.
  public func forgetOutcome(of id: UUID) async throws {
    try await store.forgetOutcome(of: id)
  }

  // MARK: - Running

  /// Sends the jobs one after the other, for as long as the queue runs.
  private func run() async {
    let clock = connection.configuration.clock
    while !Task.isCancelled {
      state.withLock { $0.jobsAdded = false }
      let claim: DurableJobClaim?
      do {
        claim = try await store.claimNextJob(for: claimDuration)
      } catch {
        emit(.notice(.init("durable job queue: the store failed: \(error)")))
        claim = nil
      }
      if let claim {
        await send(claim)
        continue
      }
      guard let interval = store.newJobsCheckInterval else {
        await waitForAdd()
        continue
      }
      // A shared store: other processes add jobs too, so look again after `interval`, or as
      // soon as this process adds one.
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await self.waitForAdd() }
        group.addTask { try? await clock.sleep(for: interval) }
        await group.next()
        group.cancelAll()
      }
    }
  }

  /// Waits until ``add(_:)`` adds a job (or added one since the runner last looked), the queue
  /// stops, or the task is cancelled.
  private func waitForAdd() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let hasWork = state.withLock { state in
          guard !state.jobsAdded, state.isStarted, state.idleRunner == nil else { return true }
          state.idleRunner = continuation
          return false
        }
        if hasWork { continuation.resume() }
      }
    } onCancel: {
      let idle = state.withLock { state in
        defer { state.idleRunner = nil }
        return state.idleRunner
      }
      idle?.resume()
    }
  }

  /// Sends `claim`'s remaining steps; returns when the job ended, the claim was lost, or the
  /// queue stopped.
  private func send(_ claim: DurableJobClaim) async {
    let job = claim.job
    var nextStep = claim.nextStep
    var attempts = claim.attempts
    // The step's saved progress, kept as it is saved: a retry of the step goes on from it.
    let checkpoint = Locked(claim.checkpoint)
    if let notBefore = job.constraints.notBefore {
      guard await wait(until: notBefore, holding: claim) else { return }
    }
    do {
      while nextStep < job.steps.count {
        if let expiresAt = job.constraints.expiresAt, now >= expiresAt {
          return try await finish(claim, .expired)
        }
        let step = job.steps[nextStep]
        if let monitor = offlineMonitor(holding: job) {
          emit(.durableJob(.init(jobID: job.id, change: .waitingForConnectivity, step: nextStep)))
          guard await waitForConnectivity(monitor, holding: claim) else { return }
          continue
        }
        guard let sender = state.withLock({ $0.senders[step.requestName] }) else {
          // Registered when the job was accepted, but not in this run of the app.
          return try await finish(
            claim,
            .failed(
              step: nextStep, category: .invalidRequest,
              message: "This app no longer knows how to send “\(step.requestName)”."))
        }
        let stepIndex = nextStep
        let context = DurableStepContext(
          connection: connection, checkpoint: checkpoint.current,
          save: { [store] state in
            try await store.record(.checkpoint(step: stepIndex, state: state), of: claim)
            checkpoint.withLock { $0 = state }
          },
          report: { [weak self] change, offset in
            self?.emit(
              .durableJob(
                .init(jobID: job.id, change: change, step: stepIndex, uploadOffset: offset)))
          })
        do {
          try await whileRenewing(claim) { try await sender.send(step, context) }
        } catch {
          if Task.isCancelled || error.isCancellation { return await store.release(claim) }
          if let lost = error as? DurableJobQueueError, lost.kind == .claimLost { throw lost }
          let category = ErrorMessageProvider.category(of: error)
          attempts += 1
          guard Self.transientCategories.contains(category),
            attempts < job.constraints.maximumAttempts
          else {
            let message = ErrorMessageProvider.standard.message(for: error)?.text ?? "\(error)"
            return try await finish(
              claim, .failed(step: nextStep, category: category, message: message),
              attempts: attempts)
          }
          try await store.record(.attemptFailed(step: nextStep, attempts: attempts), of: claim)
          var delay = job.constraints.backoff(afterFailedAttempts: attempts)
          if let expiresAt = job.constraints.expiresAt {
            delay = min(delay, max(expiresAt.timeIntervalSince(now), 0))
          }
          emit(
            .durableJob(
              .init(
                jobID: job.id, change: .retrying, step: nextStep, attempts: attempts,
                delay: delay, errorCategory: category)))
          // Offline: the network's return, not a timer, says when to try again.
          if category == .offline, offlineMonitor(holding: job) != nil { continue }
          guard await wait(until: now.addingTimeInterval(delay), holding: claim) else { return }
          continue
        }
        try await store.record(.stepFinished(nextStep), of: claim)
        emit(.durableJob(.init(jobID: job.id, change: .stepFinished, step: nextStep)))
        nextStep += 1
        attempts = 0
        checkpoint.withLock { $0 = nil }
      }
      try await finish(claim, .succeeded)
    } catch {
      // The store failed or the claim was lost: another process has the job, or it is claimed
      // again after a pause (a store that cannot write, such as a full disk, must not make the
      // queue send the same step in a loop). Its steps carry their idempotency keys either way.
      emit(.notice(.init("durable job \(job.id.uuidString.lowercased()) let go: \(error)")))
      await store.release(claim)
      try? await connection.configuration.clock.sleep(for: Self.pauseAfterStoreFailure)
    }
  }

  /// Runs `body` (a step being sent), renewing `claim` every half claim on a shared store, so
  /// that a step slower than ``claimDuration`` is not taken up by another process meanwhile.
  /// A renewal that finds the claim lost cancels the step and throws.
  private func whileRenewing(
    _ claim: DurableJobClaim, _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    guard isStoreShared else { return try await body() }
    let (clock, store, claimDuration) = (connection.configuration.clock, store, claimDuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await body() }
      group.addTask {
        while true {
          try await clock.sleep(for: claimDuration / 2)
          try await store.renew(claim, for: claimDuration)
        }
      }
      // The step ends first (renewals go on for ever), unless a renewal failed.
      try await group.next()
      group.cancelAll()
    }
  }

  /// Waits until `date`, renewing `claim` on a shared store so that it does not run out
  /// meanwhile; `false` when the queue stopped or the claim was lost.
  private func wait(until date: Date, holding claim: DurableJobClaim) async -> Bool {
    let clock = connection.configuration.clock
    let isShared = isStoreShared
    while now < date {
      do {
        let remaining = date.timeIntervalSince(now)
        try await clock.sleep(for: isShared ? min(remaining, claimDuration / 2) : remaining)
        if isShared, now < date { try await store.renew(claim, for: claimDuration) }
      } catch {
        await store.release(claim)
        return false
      }
    }
    return true
  }

  /// Waits until `monitor` no longer says offline, or the job's expiry passed (the send loop
  /// then ends it), renewing `claim` on a shared store meanwhile; `false` when the queue
  /// stopped or the claim was lost.
  private func waitForConnectivity(
    _ monitor: any ConnectivityMonitor, holding claim: DurableJobClaim
  ) async -> Bool {
    let clock = connection.configuration.clock
    let isShared = isStoreShared
    let expiresAt = claim.job.constraints.expiresAt
    while monitor.connectivity.blocksCalls {
      if let expiresAt, now >= expiresAt { return true }
      var bound = expiresAt.map { $0.timeIntervalSince(now) } ?? .infinity
      if isShared { bound = min(bound, claimDuration / 2) }
      let limit = bound
      let online = await withTaskGroup(of: Bool.self) { group in
        group.addTask { await monitor.waitUntilOnline() }
        if limit.isFinite {
          group.addTask {
            try? await clock.sleep(for: limit)
            return false
          }
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
      }
      if Task.isCancelled {
        await store.release(claim)
        return false
      }
      if !online, isShared {
        do { try await store.renew(claim, for: claimDuration) } catch {
          await store.release(claim)
          return false
        }
      }
    }
    return true
  }

  /// How long the queue waits before it claims again after its store failed.
  private static let pauseAfterStoreFailure: TimeInterval = 5

  /// Failures that say "not now" rather than "no": the job waits and tries again.
  private static let transientCategories: Set<ErrorCategory> = [
    .offline, .serverUnreachable, .timedOut, .rateLimited, .serverFailure,
  ]

  private var now: Date { connection.configuration.clock.now }

  /// The connection's monitor when it says offline and `job`'s steps wait for the network;
  /// `nil` when they go now. A server on this machine (`localhost`, `127.0.0.0/8`, `::1`) is
  /// reached without a network, so steps to it never wait, as calls do not.
  private func offlineMonitor(holding job: DurableJob) -> (any ConnectivityMonitor)? {
    guard job.constraints.needsConnectivity, let monitor = connection.connectivityMonitor,
      monitor.connectivity.blocksCalls,
      URLOrigin(connection.configuration.baseURL)?.isLoopback != true
    else { return nil }
    return monitor
  }

  /// Whether other processes share the store: then claims run out unless renewed.
  private var isStoreShared: Bool { store.newJobsCheckInterval != nil }

  /// Ends the claimed job with `ending`: kept by the store, handed to the outcome readers, and
  /// reported.
  private func finish(
    _ claim: DurableJobClaim, _ ending: DurableJobOutcome.Ending, attempts: Int? = nil
  ) async throws {
    let id = claim.job.id
    let outcome = DurableJobOutcome(jobID: id, ending: ending, finishedAt: now)
    try await store.finish(claim, with: outcome)
    let readers = state.withLock { Array($0.outcomeReaders.values) }
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
  }

  /// Hands an event to the connection's observers.
  private func emit(_ kind: ConvoyEvent.Kind) {
    connection.observers.send(kind, date: now)
  }
}
