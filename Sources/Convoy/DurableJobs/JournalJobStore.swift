import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``DurableJobStore`` in a journal file, for one process: the default of
/// ``DurableJobQueue``.
///
/// Every change is one record, written and made durable before the method returns; the state is
/// those records replayed. When more than three quarters of the records are history, the journal
/// is written again with only what the state needs. A second process that opens the same journal
/// is refused (``DurableJobQueueError/Kind/inUse``): the journal is locked (`flock` on a
/// `.lock` file beside it) while the store is open.
public final class JournalJobStore: DurableJobStore {
  /// The journal's file.
  public let fileURL: URL
  private let state = Locked(State())
  private let gate = CompactionGate()

  /// Guarded by `state`.
  private struct State {
    var journal: RecordJournal?
    var lockDescriptor: Int32 = -1
    var pending: [Pending] = []
    /// The identities of `pending`'s jobs, so that an accept need not look through them all.
    var pendingIDs: Set<UUID> = []
    var outcomes: [DurableJobOutcome] = []
    /// The claim handed out, if any: one process, one job at a time.
    var claim: UUID?
    /// How many records the journal holds beyond those a compaction would write.
    var obsoleteRecords = 0
  }

  /// A job and how far it got.
  private struct Pending {
    var job: DurableJob
    var nextStep = 0
    var attempts = 0
    var checkpoint: Data?
  }

  /// A store in the journal at `fileURL`.
  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  deinit {
    let descriptor = state.withLock { $0.lockDescriptor }
    if descriptor >= 0 { LockFile.unlock(descriptor) }
  }

  /// `nil`: only this process adds jobs.
  public var newJobsCheckInterval: TimeInterval? { nil }

  /// Locks and reads the journal, dropping (and reporting) damaged records.
  public func open() async throws -> DurableJobStoreOpening {
    let lockDescriptor = try lock()
    let opened: (journal: RecordJournal, records: [Data], recovery: RecordJournal.Recovery?)
    do {
      opened = try RecordJournal.open(at: fileURL)
    } catch {
      LockFile.unlock(lockDescriptor)
      throw DurableJobQueueError(.storage, detail: error.description)
    }
    var replayed = State()
    var unreadable = 0
    for data in opened.records {
      guard let record = try? DurableJobRecord(decoding: data) else {
        unreadable += 1
        continue
      }
      Self.apply(record, to: &replayed)
    }
    state.withLock { state in
      state.journal = opened.journal
      state.lockDescriptor = lockDescriptor
      state.pending = replayed.pending
      state.pendingIDs = replayed.pendingIDs
      state.outcomes = replayed.outcomes
      state.obsoleteRecords = opened.records.count
    }
    let repair =
      opened.recovery != nil || unreadable > 0
      ? ConvoyEvent.JournalRepaired(
        file: fileURL.lastPathComponent, droppedBytes: opened.recovery?.droppedBytes ?? 0,
        onlyAtTheEnd: opened.recovery?.reachesEnd ?? true, unreadableRecords: unreadable)
      : nil
    return DurableJobStoreOpening(
      resumed: replayed.pending.map { .init(id: $0.job.id, nextStep: $0.nextStep) },
      repair: repair)
  }

  /// Writes the jobs to the journal in one record, so that they are kept all or none; refuses
  /// them when it holds one of them already, unfinished or with its outcome kept.
  public func accept(_ jobs: [DurableJob]) async throws {
    let ids = jobs.map(\.id)
    // The ids are taken before the record is written, so that two adds of one job at once
    // cannot both be accepted.
    let duplicate = state.withLock { state -> UUID? in
      var seen = Set<UUID>()
      for id in ids {
        guard !state.pendingIDs.contains(id), !state.outcomes.contains(where: { $0.jobID == id }),
          seen.insert(id).inserted
        else { return id }
      }
      state.pendingIDs.formUnion(ids)
      return nil
    }
    if let duplicate { throw DurableJobQueueError(.duplicateJob(duplicate)) }
    do {
      try await write(.accepted(jobs)) { state in
        state.pending.append(contentsOf: jobs.map { Pending(job: $0) })
      }
    } catch {
      state.withLock { $0.pendingIDs.subtract(ids) }
      throw error
    }
  }

  /// The first unfinished job, unless it is claimed already (one process, one job at a time).
  public func claimNextJob(for lease: TimeInterval) async throws -> DurableJobClaim? {
    try state.withLock { state -> DurableJobClaim? in
      guard state.journal != nil else { throw DurableJobQueueError(.notStarted) }
      guard state.claim == nil, let first = state.pending.first else { return nil }
      let claim = DurableJobClaim(
        job: first.job, nextStep: first.nextStep, attempts: first.attempts,
        checkpoint: first.checkpoint)
      state.claim = claim.token
      return claim
    }
  }

  /// Nothing to do: no other process can take the job.
  public func renew(_ claim: DurableJobClaim, for lease: TimeInterval) async throws {
    try checkHeld(claim)
  }

  /// Writes the progress to the journal.
  public func record(_ progress: DurableJobProgress, of claim: DurableJobClaim) async throws {
    try checkHeld(claim)
    let record: DurableJobRecord =
      switch progress {
      case .stepFinished(let step): .stepFinished(job: claim.job.id, step: step)
      case .attemptFailed(let step, let attempts):
        .attemptFailed(job: claim.job.id, step: step, attempts: attempts)
      case .checkpoint(let step, let checkpoint):
        .checkpoint(job: claim.job.id, step: step, state: checkpoint)
      }
    try await write(record) { state in
      guard let index = state.pending.firstIndex(where: { $0.job.id == claim.job.id }) else {
        return
      }
      switch progress {
      case .stepFinished(let step):
        state.pending[index].nextStep = step + 1
        state.pending[index].attempts = 0
        state.pending[index].checkpoint = nil
      case .attemptFailed(_, let attempts):
        state.pending[index].attempts = attempts
      case .checkpoint(_, let checkpoint):
        state.pending[index].checkpoint = checkpoint
      }
    }
  }

  /// Writes the outcome to the journal; the job is done.
  public func finish(_ claim: DurableJobClaim, with outcome: DurableJobOutcome) async throws {
    try checkHeld(claim)
    try await write(.finished(outcome)) { state in
      state.pending.removeAll { $0.job.id == claim.job.id }
      state.pendingIDs.remove(claim.job.id)
      state.outcomes.append(outcome)
      state.claim = nil
    }
    compactIfWorthIt()
  }

  /// Lets the job be claimed again.
  public func release(_ claim: DurableJobClaim) async {
    state.withLock { state in
      if state.claim == claim.token { state.claim = nil }
    }
  }

  /// The outcomes kept, from the journal.
  public func outcomes() async throws -> [DurableJobOutcome] {
    state.withLock { $0.outcomes }
  }

  /// Writes that the outcome is no longer needed.
  public func forgetOutcome(of id: UUID) async throws {
    try await write(.forgotten(job: id)) { $0.outcomes.removeAll { $0.jobID == id } }
    compactIfWorthIt()
  }

  /// The unfinished jobs, in the order they were accepted.
  public func unfinishedJobs() async throws -> [DurableJob] {
    state.withLock { $0.pending.map(\.job) }
  }

  /// Closes the journal and lets another process open it.
  public func close() {
    let descriptor = state.withLock { state in
      defer {
        state.journal = nil
        state.lockDescriptor = -1
        state.claim = nil
      }
      return state.lockDescriptor
    }
    if descriptor >= 0 { LockFile.unlock(descriptor) }
  }

  // MARK: - The journal

  private func checkHeld(_ claim: DurableJobClaim) throws {
    let held = state.withLock { $0.claim == claim.token }
    guard held else { throw DurableJobQueueError(.claimLost) }
  }

  /// Appends `record`, then applies `update` to the state; a compaction never runs in between
  /// (it would write a journal without the record, from a state without the update).
  private func write(_ record: DurableJobRecord, then update: (inout State) -> Void) async throws {
    guard let journal = state.withLock({ $0.journal }) else {
      throw DurableJobQueueError(.notStarted)
    }
    let encoded = record.encoded()
    await gate.enterWrite()
    let failure: RecordJournal.Failure?
    do {
      try await journal.append(encoded)
      failure = nil
    } catch {
      failure = error
    }
    if failure == nil {
      state.withLock { state in
        state.obsoleteRecords += 1
        update(&state)
      }
    }
    gate.leaveWrite()
    if let failure { throw DurableJobQueueError(.storage, detail: failure.description) }
  }

  /// Takes the journal's lock file for this process; refuses when another holds it.
  private func lock() throws -> Int32 {
    let path = fileURL.path + ".lock"
    do {
      try FileManager.default.createDirectory(
        at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw DurableJobQueueError(.storage, detail: "\(error)")
    }
    do {
      return try LockFile.lock(path, waits: false)
    } catch .held {
      throw DurableJobQueueError(
        .inUse, detail: "\(fileURL.lastPathComponent) is open in another process")
    } catch .system(let call, let code) {
      throw DurableJobQueueError(.storage, detail: "\(call) \(path): errno \(code)")
    }
  }

  /// Writes the journal again with only what the state needs, once most of its records are
  /// history. A failure leaves the old journal, whole, in place.
  private func compactIfWorthIt() {
    // Not while records are being written: the snapshot would miss them. The next finish or
    // forget tries again.
    guard gate.tryStartCompaction() else { return }
    defer { gate.endCompaction() }
    let (journal, records) = state.withLock { state -> (RecordJournal?, [DurableJobRecord]) in
      let live = Self.records(describing: state)
      guard state.obsoleteRecords > 64, state.obsoleteRecords > 4 * live.count else {
        return (nil, [])
      }
      state.obsoleteRecords = live.count
      return (state.journal, live)
    }
    guard let journal else { return }
    try? journal.replace(with: records.map { $0.encoded() })
  }

  /// The fewest records that give `state` back when replayed.
  private static func records(describing state: State) -> [DurableJobRecord] {
    var records: [DurableJobRecord] = []
    for pending in state.pending {
      records.append(.accepted([pending.job]))
      for step in 0..<pending.nextStep {
        records.append(.stepFinished(job: pending.job.id, step: step))
      }
      if pending.attempts > 0 {
        records.append(
          .attemptFailed(job: pending.job.id, step: pending.nextStep, attempts: pending.attempts))
      }
      if let checkpoint = pending.checkpoint {
        records.append(.checkpoint(job: pending.job.id, step: pending.nextStep, state: checkpoint))
      }
    }
    for outcome in state.outcomes { records.append(.finished(outcome)) }
    return records
  }

  /// Replays `record` onto `state`.
  private static func apply(_ record: DurableJobRecord, to state: inout State) {
    switch record {
    case .accepted(let jobs):
      state.pending.append(contentsOf: jobs.map { Pending(job: $0) })
      state.pendingIDs.formUnion(jobs.map(\.id))
    case .stepFinished(let id, let step):
      guard let index = state.pending.firstIndex(where: { $0.job.id == id }) else { return }
      state.pending[index].nextStep = max(state.pending[index].nextStep, step + 1)
      state.pending[index].attempts = 0
      state.pending[index].checkpoint = nil
    case .attemptFailed(let id, let step, let attempts):
      guard let index = state.pending.firstIndex(where: { $0.job.id == id }),
        state.pending[index].nextStep == step
      else { return }
      state.pending[index].attempts = attempts
    case .checkpoint(let id, let step, let checkpoint):
      guard let index = state.pending.firstIndex(where: { $0.job.id == id }),
        state.pending[index].nextStep == step
      else { return }
      state.pending[index].checkpoint = checkpoint
    case .finished(let outcome):
      state.pending.removeAll { $0.job.id == outcome.jobID }
      state.pendingIDs.remove(outcome.jobID)
      state.outcomes.append(outcome)
    case .forgotten(let id):
      state.outcomes.removeAll { $0.jobID == id }
    }
  }
}

/// Lets any number of journal writes run at once, or one compaction alone: a compaction takes a
/// snapshot of the state and writes the journal anew from it, so a record written meanwhile
/// would be lost with the old file.
private final class CompactionGate: @unchecked Sendable {
  private let lock = Lock()
  // Guarded by `lock`.
  private var writes = 0
  private var isCompacting = false
  private var waitingWrites: [CheckedContinuation<Void, Never>] = []

  /// Waits while a compaction runs, then counts the caller as writing.
  func enterWrite() async {
    await withCheckedContinuation { continuation in
      let canGo = lock.withLock {
        guard isCompacting else {
          writes += 1
          return true
        }
        waitingWrites.append(continuation)
        return false
      }
      if canGo { continuation.resume() }
    }
  }

  func leaveWrite() {
    lock.withLock { writes -= 1 }
  }

  /// Starts a compaction when no write is under way; `false` otherwise.
  func tryStartCompaction() -> Bool {
    lock.withLock {
      guard writes == 0, !isCompacting else { return false }
      isCompacting = true
      return true
    }
  }

  /// Ends the compaction and lets the writes that waited for it go.
  func endCompaction() {
    let waiting = lock.withLock {
      isCompacting = false
      writes += waitingWrites.count
      defer { waitingWrites = [] }
      return waitingWrites
    }
    for write in waiting { write.resume() }
  }
}
