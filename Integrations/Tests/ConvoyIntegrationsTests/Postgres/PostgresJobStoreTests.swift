import Convoy
import ConvoyPostgres
import Foundation
import PostgresNIO
import Testing

/// The request the jobs of these tests hold (the same as convoy-queue-worker's).
struct ApplyStep: DurableRequest {
  static let durableName = "apply-step"
  typealias Response = EmptyResponse
  let job: Int
  let step: Int
  var method: HTTPMethod { .post }
  var path: String { "apply/\(job)/\(step)" }
}

/// A job of `steps` steps, numbered `number`.
func applyJob(_ number: Int, steps: Int = 1) throws -> DurableJob {
  try DurableJob(steps: (0..<steps).map { try .request(ApplyStep(job: number, step: $0)) })
}

/// A table of its own for each test, so that the tests of a suite share its server in parallel.
func freshTableName() -> String {
  "jobs_" + UUID().uuidString.prefix(8).lowercased()
}

/// The contract of DurableJobStore, as PostgresJobStore keeps it against a real PostgreSQL.
@Suite(
  .enabled(if: PostgresServer.isAvailable, PostgresServer.missingComment),
  .postgresServer, .timeLimit(.minutes(3)))
struct PostgresJobStoreTests {
  /// Runs `body` with an opened store on a new table of the suite's server.
  private func withStore(
    _ body: (PostgresJobStore, PostgresClient) async throws -> Void
  ) async throws {
    let server = try #require(PostgresServer.current)
    try await server.withClient { client in
      let store = try PostgresJobStore(client: client, tableName: freshTableName())
      _ = try await store.open()
      try await body(store, client)
    }
  }

  private func outcome(of id: UUID) throws -> DurableJobOutcome {
    // DurableJobOutcome is made by the queue; its Codable form is the way to make one here.
    let json = #"{"jobID":"\#(id.uuidString)","ending":{"succeeded":{}},"finishedAt":0}"#
    return try JSONDecoder().decode(DurableJobOutcome.self, from: Data(json.utf8))
  }

  private func kind(of call: () async throws -> Void) async -> DurableJobQueueError.Kind? {
    do {
      try await call()
      return nil
    } catch {
      return (error as? DurableJobQueueError)?.kind
    }
  }

  @Test func jobsAreClaimedInTheOrderTheyWereAcceptedAndOnlyOnce() async throws {
    try await withStore { store, _ in
      let jobs = try (0..<3).map { try applyJob($0) }
      for job in jobs { try await store.accept([job]) }
      var claimed: [UUID] = []
      while let claim = try await store.claimNextJob(for: 60) { claimed.append(claim.job.id) }
      #expect(claimed == jobs.map(\.id))
      #expect(try await store.unfinishedJobs() == jobs)
    }
  }

  @Test func concurrentClaimersSkipTheRowsOthersHoldAndNeverShareAJob() async throws {
    try await withStore { store, _ in
      let jobs = try (0..<40).map { try applyJob($0) }
      for job in jobs { try await store.accept([job]) }
      // Four claimers at once, on four connections of the pool, until none gets a job.
      let claimed = try await withThrowingTaskGroup(of: [UUID].self) { group in
        for _ in 0..<4 {
          group.addTask {
            var mine: [UUID] = []
            while let claim = try await store.claimNextJob(for: 60) { mine.append(claim.job.id) }
            return mine
          }
        }
        return try await group.reduce(into: [UUID]()) { $0 += $1 }
      }
      #expect(claimed.count == jobs.count)
      #expect(Set(claimed) == Set(jobs.map(\.id)))
    }
  }

  @Test func aLiveClaimKeepsTheJobAndAnExpiredOneLetsAnotherClaimerTakeIt() async throws {
    try await withStore { store, _ in
      let held = try applyJob(0, steps: 3)
      let expiring = try applyJob(1, steps: 3)
      try await store.accept([held])
      try await store.accept([expiring])
      _ = try #require(try await store.claimNextJob(for: 60))
      // A lease of 0 s has run out by the server's clock at its next statement: no waiting.
      let first = try #require(try await store.claimNextJob(for: 0))
      #expect(first.job == expiring)
      try await store.record(.stepFinished(0), of: first)
      try await store.record(.attemptFailed(step: 1, attempts: 2), of: first)

      let second = try #require(try await store.claimNextJob(for: 60))
      #expect(second.job == expiring)
      #expect(second.token != first.token)
      #expect(second.nextStep == 1)
      #expect(second.attempts == 2)
      #expect(try await store.claimNextJob(for: 60) == nil)

      // Every write of the stale claim is refused, and changes nothing.
      #expect(await kind { try await store.renew(first, for: 60) } == .claimLost)
      #expect(await kind { try await store.record(.stepFinished(1), of: first) } == .claimLost)
      #expect(
        await kind { try await store.finish(first, with: try outcome(of: expiring.id)) }
          == .claimLost)
      await store.release(first)
      try await store.renew(second, for: 60)
      try await store.record(.stepFinished(1), of: second)
      try await store.finish(second, with: try outcome(of: expiring.id))
      #expect(try await store.outcomes().map(\.jobID) == [expiring.id])
    }
  }

  @Test func aReleasedJobIsTheNextClaimedAndGoesOnFromItsLastFinishedStep() async throws {
    try await withStore { store, _ in
      let first = try applyJob(0, steps: 2)
      try await store.accept([first])
      try await store.accept([try applyJob(1)])
      let claim = try #require(try await store.claimNextJob(for: 60))
      try await store.record(.stepFinished(0), of: claim)
      await store.release(claim)
      let again = try #require(try await store.claimNextJob(for: 60))
      #expect(again.job == first)
      #expect(again.nextStep == 1)
      #expect(again.attempts == 0)
    }
  }

  @Test func aStepsCheckpointComesBackWithTheNextClaimUntilTheStepFinishes() async throws {
    try await withStore { store, _ in
      let job = try applyJob(0, steps: 2)
      try await store.accept([job])
      let claim = try #require(try await store.claimNextJob(for: 60))
      #expect(claim.checkpoint == nil)
      let state = Data("http://127.0.0.1/files/upload-1".utf8)
      try await store.record(.checkpoint(step: 0, state: state), of: claim)
      await store.release(claim)
      let again = try #require(try await store.claimNextJob(for: 60))
      #expect(again.checkpoint == state)
      try await store.record(.stepFinished(0), of: again)
      await store.release(again)
      #expect(try await store.claimNextJob(for: 60)?.checkpoint == nil)
    }
  }

  @Test func outcomesAreKeptInTheOrderJobsEndedUntilForgotten() async throws {
    try await withStore { store, _ in
      let jobs = try (0..<3).map { try applyJob($0) }
      for job in jobs { try await store.accept([job]) }
      let claims = [
        try #require(try await store.claimNextJob(for: 60)),
        try #require(try await store.claimNextJob(for: 60)),
      ]
      try await store.finish(claims[1], with: try outcome(of: claims[1].job.id))
      try await store.finish(claims[0], with: try outcome(of: claims[0].job.id))
      #expect(try await store.outcomes().map(\.jobID) == [jobs[1].id, jobs[0].id])
      #expect(try await store.unfinishedJobs() == [jobs[2]])
      // A finished job is never claimed again, nor finished twice.
      #expect(try await store.claimNextJob(for: 60)?.job == jobs[2])
      #expect(
        await kind { try await store.finish(claims[0], with: try outcome(of: jobs[0].id)) }
          == .claimLost)

      try await store.forgetOutcome(of: jobs[1].id)
      #expect(try await store.outcomes().map(\.jobID) == [jobs[0].id])
      // Forgetting an unfinished job's outcome drops nothing.
      try await store.forgetOutcome(of: jobs[2].id)
      #expect(try await store.unfinishedJobs() == [jobs[2]])
    }
  }

  @Test func aJobWhoseIdentityTheTableHoldsIsRefused() async throws {
    try await withStore { store, _ in
      let job = try applyJob(0)
      try await store.accept([job])
      #expect(await kind { try await store.accept([job]) } == .duplicateJob(job.id))
      let claim = try #require(try await store.claimNextJob(for: 60))
      try await store.finish(claim, with: try outcome(of: job.id))
      #expect(await kind { try await store.accept([job]) } == .duplicateJob(job.id))
      #expect(try await store.unfinishedJobs().isEmpty)
      // A batch is kept all or none: one job the table holds refuses the others too.
      let fresh = try applyJob(1)
      #expect(await kind { try await store.accept([fresh, job]) } == .duplicateJob(job.id))
      #expect(try await store.unfinishedJobs().isEmpty)
      try await store.accept([fresh])
      #expect(try await store.unfinishedJobs().map(\.id) == [fresh.id])
    }
  }

  @Test func processesOpeningTheStoreAtOnceCreateOneTableAndSeeTheJobsLeft() async throws {
    let server = try #require(PostgresServer.current)
    try await server.withClient { client in
      let table = freshTableName()
      let stores = try (0..<4).map { _ in try PostgresJobStore(client: client, tableName: table) }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for store in stores { group.addTask { _ = try await store.open() } }
        try await group.waitForAll()
      }
      let jobs = try (0..<2).map { try applyJob($0, steps: 2) }
      try await stores[0].accept(jobs)
      let claim = try #require(try await stores[1].claimNextJob(for: 60))
      try await stores[1].record(.stepFinished(0), of: claim)
      await stores[1].release(claim)
      let opening = try await stores[2].open()
      #expect(
        opening.resumed == [.init(id: jobs[0].id, nextStep: 1), .init(id: jobs[1].id, nextStep: 0)])
      #expect(try await stores[3].unfinishedJobs() == jobs)
    }
  }

  @Test func aFailingServerIsAStorageError() async throws {
    try await withStore { _, client in
      // A table that was never created: every statement fails on the server.
      let store = try PostgresJobStore(client: client, tableName: freshTableName())
      let error = await #expect(throws: DurableJobQueueError.self) {
        try await store.accept([try applyJob(0)])
      }
      #expect(error?.kind == .storage)
      #expect(error?.detail.contains("42P01") == true)
    }
  }

  @Test(arguments: [
    "", "Jobs", "1jobs", "jobs; DROP TABLE x", "jobs-2", "a.b", String(repeating: "j", count: 41),
  ])
  func aTableNameThatIsNotAPlainIdentifierIsRefused(name: String) throws {
    // The client never connects: the name is refused before any statement.
    let client = PostgresClient(
      configuration: .init(
        host: "127.0.0.1", port: 1, username: "convoy", password: nil, database: nil,
        tls: .disable))
    let error = #expect(throws: PostgresJobStore.InvalidTableName.self) {
      try PostgresJobStore(client: client, tableName: name)
    }
    #expect(error?.name == name)
    #expect(throws: Never.self) { try PostgresJobStore(client: client, tableName: "jobs_2") }
  }
}
