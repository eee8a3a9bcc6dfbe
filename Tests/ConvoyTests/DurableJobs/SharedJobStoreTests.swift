import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A store as a database shared by several processes would be: claims run out unless renewed,
/// and a claim that ran out is refused.
private final class SharedStore: DurableJobStore, @unchecked Sendable {
  private let lock = NSLock()
  private var jobs: [(job: DurableJob, nextStep: Int, attempts: Int, claim: UUID?)] = []
  private var finished: [DurableJobOutcome] = []
  private(set) var renewals = 0
  /// Set to take the next renewal's claim away, as another process would after a lease ran out.
  var losesClaimOnRenewal = false
  /// Set to fail every `finish`, as a store that cannot write (a full disk).
  var failsToFinish = false

  var newJobsCheckInterval: TimeInterval? { 5 }

  func open() async throws -> DurableJobStoreOpening { DurableJobStoreOpening() }

  func accept(_ jobs: [DurableJob]) async throws {
    lock.withLock { self.jobs += jobs.map { ($0, 0, 0, nil) } }
  }

  /// As another process would: adds a job behind this queue's back.
  func addBehindTheQueuesBack(_ job: DurableJob) {
    lock.withLock { jobs.append((job, 0, 0, nil)) }
  }

  func claimNextJob(for lease: TimeInterval) async throws -> DurableJobClaim? {
    lock.withLock {
      guard let index = jobs.firstIndex(where: { $0.claim == nil }) else { return nil }
      let claim = DurableJobClaim(
        job: jobs[index].job, nextStep: jobs[index].nextStep, attempts: jobs[index].attempts)
      jobs[index].claim = claim.token
      return claim
    }
  }

  func renew(_ claim: DurableJobClaim, for lease: TimeInterval) async throws {
    try lock.withLock {
      renewals += 1
      if losesClaimOnRenewal, let index = jobs.firstIndex(where: { $0.claim == claim.token }) {
        jobs[index].claim = UUID()
      }
      guard jobs.contains(where: { $0.claim == claim.token }) else {
        throw DurableJobQueueError(.claimLost)
      }
    }
  }

  func record(_ progress: DurableJobProgress, of claim: DurableJobClaim) async throws {
    try lock.withLock {
      guard let index = jobs.firstIndex(where: { $0.claim == claim.token }) else {
        throw DurableJobQueueError(.claimLost)
      }
      switch progress {
      case .stepFinished(let step): jobs[index].nextStep = step + 1
      case .attemptFailed(_, let attempts): jobs[index].attempts = attempts
      case .checkpoint: break
      }
    }
  }

  func finish(_ claim: DurableJobClaim, with outcome: DurableJobOutcome) async throws {
    if failsToFinish { throw DurableJobQueueError(.storage, detail: "the disk is full") }
    try lock.withLock {
      guard let index = jobs.firstIndex(where: { $0.claim == claim.token }) else {
        throw DurableJobQueueError(.claimLost)
      }
      jobs.remove(at: index)
      finished.append(outcome)
    }
  }

  func release(_ claim: DurableJobClaim) async {
    lock.withLock {
      if let index = jobs.firstIndex(where: { $0.claim == claim.token }) { jobs[index].claim = nil }
    }
  }

  func outcomes() async throws -> [DurableJobOutcome] { lock.withLock { finished } }
  var finishedJobs: [UUID] { lock.withLock { finished.map(\.jobID) } }
  /// The failed attempts recorded for the first job: once one is, its sending is over.
  var firstJobAttempts: Int { lock.withLock { jobs.first?.attempts ?? 0 } }
  func forgetOutcome(of id: UUID) async throws {
    lock.withLock { finished.removeAll { $0.jobID == id } }
  }
  func unfinishedJobs() async throws -> [DurableJob] { lock.withLock { jobs.map(\.job) } }
  var claimedJobs: Int { lock.withLock { jobs.filter { $0.claim != nil }.count } }
}

private struct Ping: DurableRequest {
  static let durableName = "ping"
  typealias Response = EmptyResponse
  var method: HTTPMethod { .post }
  var path: String { "ping" }
}

@Suite(.timeLimit(.minutes(1))) struct SharedJobStoreTests {
  private func queue(on store: SharedStore, clock: TestClock, answer: StubAnswer)
    -> (DurableJobQueue, StubTransport)
  {
    let transport = StubTransport { _ in answer }
    transport.clock = clock
    var configuration = ServerConfiguration.local(port: 8080)
    configuration.clock = clock
    configuration.retryPolicy = .never
    configuration.timeout = 600
    let queue = DurableJobQueue(
      connection: ServerConnection(configuration: configuration, transport: transport),
      store: store, claimDuration: 60)
    queue.register(Ping.self)
    return (queue, transport)
  }

  @Test func aLongWaitRenewsTheClaimSoThatItDoesNotRunOut() async throws {
    let store = SharedStore()
    let clock = TestClock()
    let (queue, _) = queue(on: store, clock: clock, answer: .status(503))
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(Ping())],
        constraints: DurableJobConstraints(baseDelay: 200, maximumDelay: 200)))
    // The attempt is over (its in-flight renewal timer gone) before the back-off is driven.
    #expect(await eventually { store.firstJobAttempts == 1 })
    // The back-off of 200 s is slept in parts of half a claim (30 s), each followed by a renewal.
    for _ in 0..<3 {
      #expect(await clock.waitForWakeUp(in: 30))
      clock.advance(by: 30)
    }
    #expect(await eventually { store.renewals >= 3 })
    queue.stop()
  }

  @Test func aQueueWhoseClaimRanOutLetsTheJobGoWithoutFinishingIt() async throws {
    let store = SharedStore()
    let clock = TestClock()
    let (queue, _) = queue(on: store, clock: clock, answer: .status(503))
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(Ping())],
        constraints: DurableJobConstraints(baseDelay: 200, maximumDelay: 200)))
    // The attempt is over (its in-flight renewal timer gone) before the back-off is driven.
    #expect(await eventually { store.firstJobAttempts == 1 })
    #expect(await clock.waitForWakeUp(in: 30))
    store.losesClaimOnRenewal = true
    clock.advance(by: 30)
    // The queue let go; the job is another process's now, unfinished, with no outcome here.
    #expect(await eventually { store.renewals == 1 })
    #expect(try await store.outcomes().isEmpty)
    #expect(try await store.unfinishedJobs().count == 1)
    queue.stop()
  }

  @Test func anIdleQueueFindsJobsOtherProcessesAdded() async throws {
    let store = SharedStore()
    let clock = TestClock()
    let (queue, transport) = queue(on: store, clock: clock, answer: .status(204))
    try await queue.start()
    #expect(await clock.waitForWakeUp(in: 5))
    let job = try DurableJob(steps: [.request(Ping())])
    store.addBehindTheQueuesBack(job)
    clock.advance(by: 5)
    #expect(await eventually { store.finishedJobs == [job.id] })
    #expect(transport.requests.count == 1)
    queue.stop()
  }

  @Test func aStepInFlightLongerThanHalfAClaimRenewsIt() async throws {
    let store = SharedStore()
    let clock = TestClock()
    let (queue, transport) = queue(on: store, clock: clock, answer: .delayed(100, .status(204)))
    try await queue.start()
    try await queue.add(try DurableJob(steps: [.request(Ping())]))
    // The answer's delay and the first renewal both count from the sending.
    #expect(await eventually { transport.requests.count == 1 })
    #expect(await clock.waitForWakeUp(in: 100))
    for _ in 0..<3 {
      #expect(await clock.waitForWakeUp(in: 30))
      clock.advance(by: 30)
    }
    #expect(await eventually { store.renewals == 3 })
    clock.advance(by: 10)
    #expect(await eventually { store.finishedJobs.count == 1 })
    queue.stop()
  }

  @Test func aStepInFlightWhoseClaimWasLostIsCancelledAndTheJobLetGo() async throws {
    let store = SharedStore()
    let clock = TestClock()
    let (queue, transport) = queue(on: store, clock: clock, answer: .delayed(100, .status(204)))
    try await queue.start()
    try await queue.add(try DurableJob(steps: [.request(Ping())]))
    #expect(await eventually { transport.requests.count == 1 })
    #expect(await clock.waitForWakeUp(in: 30))
    store.losesClaimOnRenewal = true
    clock.advance(by: 30)
    #expect(await eventually { store.renewals == 1 })
    clock.advance(by: 100)
    #expect(store.finishedJobs.isEmpty)
    #expect(try await store.unfinishedJobs().count == 1)
    #expect(transport.requests.count == 1)
    queue.stop()
  }

  @Test func aStoreThatCannotWriteMakesTheQueuePauseNotSendTheStepInALoop() async throws {
    let store = SharedStore()
    store.failsToFinish = true
    let clock = TestClock()
    let (queue, transport) = queue(on: store, clock: clock, answer: .status(204))
    try await queue.start()
    try await queue.add(try DurableJob(steps: [.request(Ping())]))
    #expect(await clock.waitForWakeUp(in: 5))
    #expect(transport.requests.count == 1)
    store.failsToFinish = false
    clock.advance(by: 5)
    #expect(await eventually { store.finishedJobs.count == 1 })
    // The step's success was recorded before the outcome failed to be: it is not sent again.
    #expect(transport.requests.count == 1)
    queue.stop()
  }
}
