import Convoy
import Foundation
import Testing

private struct Tick: DurableRequest {
  static let durableName = "tick"
  typealias Response = EmptyResponse
  let number: Int
  var method: HTTPMethod { .put }
  var path: String { "ticks/\(number)" }
}

/// The journal store under concurrent writes: compactions, which write the journal anew from a
/// snapshot of the state, must never lose a record written meanwhile.
@Suite(.timeLimit(.minutes(1))) struct JournalJobStoreTests {
  @Test func jobsAddedWhileOthersFinishAndCompactionsRunAreAllKept() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-store-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("jobs.journal")
    let store = JournalJobStore(fileURL: file)
    _ = try await store.open()
    let jobs = try (0..<400).map { try DurableJob(steps: [.request(Tick(number: $0))]) }
    let forgotten = Locked(Set<UUID>())
    try await withThrowingTaskGroup(of: Void.self) { group in
      // Eight writers add jobs at once...
      for writer in 0..<8 {
        group.addTask {
          for job in jobs[(writer * 50)..<(writer * 50 + 50)] { try await store.accept([job]) }
        }
      }
      // ...while one runner finishes and forgets them, which compacts the journal again and
      // again (most of its records become history).
      group.addTask {
        var finished = 0
        for _ in 0..<10_000 where finished < 300 {
          guard let claim = try await store.claimNextJob(for: 60) else {
            await Task.yield()
            continue
          }
          try await store.record(.stepFinished(0), of: claim)
          try await store.finish(
            claim,
            with: DurableJobOutcome(jobID: claim.job.id, ending: .succeeded, finishedAt: Date()))
          try await store.forgetOutcome(of: claim.job.id)
          forgotten.withLock { _ = $0.insert(claim.job.id) }
          finished += 1
        }
      }
      try await group.waitForAll()
    }
    store.close()
    #expect(try Data(contentsOf: file).count < 400 * 400, "the journal was never compacted")

    let reopened = JournalJobStore(fileURL: file)
    _ = try await reopened.open()
    let kept = Set(try await reopened.unfinishedJobs().map(\.id))
    // Every job is either still there or was finished and forgotten: none lost, none twice.
    #expect(kept.isDisjoint(with: forgotten.current))
    #expect(kept.union(forgotten.current) == Set(jobs.map(\.id)))
    reopened.close()
  }
}
