import Convoy
import ConvoyPostgres
import ConvoyTesting
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #39's promise for several machines: two processes (convoy-queue-worker) drain one
/// queue kept in PostgreSQL; one is killed in the middle of a job; every job is still finished
/// once, and the server sees every step under one Idempotency-Key, the killed one's again only
/// under the same key.
@Suite(
  .enabled(if: PostgresServer.isAvailable, PostgresServer.missingComment),
  .postgresServer, .timeLimit(.minutes(4)))
struct PostgresQueueWorkersTests {
  /// Jobs of two steps each.
  private static let jobCount = 8
  /// How long the server takes to answer: long enough that a worker killed as its request
  /// arrives has not had the answer, short enough that a claim (3 s) never runs out while a
  /// live worker waits.
  private static let answerDelay = Duration.seconds(1)
  private static let claimDuration = 3

  @Test func twoWorkersFinishEveryJobOnceWhenOneIsKilledMidJob() async throws {
    let postgres = try #require(PostgresServer.current)
    let server = try await MockServer.started()
    server.route(.post, "/apply/*", answer: MockAnswer(status: 204, headDelay: Self.answerDelay))

    do {
      try await drain(postgres, server)
    } catch {
      await server.shutdown()
      throw error
    }
    await server.shutdown()
  }

  private func drain(_ postgres: PostgresServer, _ server: MockServer) async throws {
    try await postgres.withClient { client in
      let table = freshTableName()
      let store = try PostgresJobStore(client: client, tableName: table)
      _ = try await store.open()
      let jobs = try (0..<Self.jobCount).map { try applyJob($0, steps: 2) }
      try await store.accept(jobs)

      let victim = try startWorker("victim", postgresPort: postgres.port, table, server.port)
      let survivor = try startWorker("survivor", postgresPort: postgres.port, table, server.port)
      defer {
        for worker in [victim, survivor] where worker.isRunning { worker.terminate() }
      }
      // The victim dies as a request of its arrives, after the fifth of both, a second before that request's answer:
      // its job is claimed, a step sent, nothing recorded.
      let inFlight = try await server.waitForRequest(timeout: .seconds(90)) { request in
        request.headers["X-Worker"] == "victim" && request.sequenceNumber >= 4
      }
      kill(victim.processIdentifier, SIGKILL)

      #expect(try await exitStatus(of: survivor, within: .seconds(120)) == 0)
      #expect(try await exitStatus(of: victim, within: .seconds(10)) != 0)

      // Every job ended once, successfully, in the store.
      let outcomes = try await store.outcomes()
      #expect(outcomes.count == jobs.count)
      #expect(Set(outcomes.map(\.jobID)) == Set(jobs.map(\.id)))
      #expect(outcomes.allSatisfy { $0.ending == .succeeded })
      #expect(try await store.unfinishedJobs().isEmpty)

      // Every step reached the server, each under one key only: a server that honours the key
      // applied each once. The killed worker's step came again, from the survivor.
      let requests = server.requests
      var keys: [String: Set<String>] = [:]
      for request in requests {
        keys[request.path, default: []].insert(request.headers["Idempotency-Key"] ?? "none")
      }
      let paths = (0..<Self.jobCount).flatMap { job in (0..<2).map { "/apply/\(job)/\($0)" } }
      #expect(Set(keys.keys) == Set(paths))
      for path in paths {
        #expect(keys[path]?.count == 1, "\(path) came with keys \(keys[path] ?? [])")
        #expect(keys[path]?.contains("none") == false)
      }
      let resent = requests.filter { $0.path == inFlight.path }
      #expect(resent.count >= 2)
      #expect(resent.last?.headers["X-Worker"] == "survivor")
    }
  }

  private func startWorker(
    _ name: String, postgresPort: Int, _ table: String, _ serverPort: Int
  ) throws -> Process {
    let process = Process()
    process.executableURL = try workerBinary()
    process.arguments = [
      "\(postgresPort)", table, "\(serverPort)", "\(Self.claimDuration)", name,
    ]
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// The worker's exit status, waiting at most `bound` for it.
  private func exitStatus(of process: Process, within bound: Duration) async throws -> Int32? {
    let deadline = ContinuousClock.now + bound
    while process.isRunning {
      guard ContinuousClock.now < deadline else { return nil }
      try await Task.sleep(for: .milliseconds(50))
    }
    return process.terminationStatus
  }

  /// convoy-queue-worker, which SwiftPM built next to the test bundle.
  private func workerBinary() throws -> URL {
    let directories =
      [Bundle.main.executableURL?.deletingLastPathComponent()]
      + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
      .map { $0.bundleURL.deletingLastPathComponent() }
    for case let directory? in directories {
      let candidate = directory.appendingPathComponent("convoy-queue-worker")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw PostgresServer.Failure(
      description:
        "convoy-queue-worker was not built next to the tests (looked in "
        + "\(directories.compactMap { $0?.path })): swift build --package-path Integrations")
  }
}
