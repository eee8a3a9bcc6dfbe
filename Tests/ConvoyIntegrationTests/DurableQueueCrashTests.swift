import ConvoyTestSupport
import Foundation
import Testing

/// The durable queue killed at random moments, as SQLite's and etcd's crash tests do: a child
/// process (`QueueCrashWorker`) adds jobs to a journal and sends them to a server that honours
/// `Idempotency-Key`s and counts what it applied; the test kills the child with SIGKILL at a
/// random moment, again and again, then lets one run to the end, and checks that every job was
/// applied exactly once.
@Suite(.needs(.fastapi), .timeLimit(.minutes(4))) struct DurableQueueCrashTests {
  private let server = IdempotencyServer.shared
  /// Jobs per trial run: enough that kills land while adding, while sending, and in between.
  private let jobs = 30

  /// The worker SwiftPM built next to the tests.
  private func worker() throws -> URL { try BuiltExecutable.url(named: "QueueCrashWorker") }

  /// Starts the worker on `journal`, its standard output going to `output`; its end, to await.
  private func start(_ worker: URL, journal: URL, output: URL) throws -> (Process, ProcessExit) {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let process = Process()
    process.executableURL = worker
    process.arguments = [journal.path, server.baseURL.absoluteString + "/", String(jobs)]
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = FileHandle.nullDevice
    let exit = ProcessExit(process)
    try process.run()
    return (process, exit)
  }

  @Test func killedAtRandomMomentsEveryAcceptedJobIsAppliedExactlyOnce() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-crash-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let worker = try worker()
    let journal = directory.appendingPathComponent("jobs.journal")
    let output = directory.appendingPathComponent("worker.out")
    let keysBefore = Set(try server.applied().map(\.key))
    var generator = SystemRandomNumberGenerator()
    var reportedAccepted: Set<Int> = []
    var trials = 0
    let started = ContinuousClock.now
    // At least 200 kills, unless the whole run passes 150 s on a very slow machine.
    while trials < 200, ContinuousClock.now - started < .seconds(150) {
      let (process, exit) = try start(worker, journal: journal, output: output)
      // Most kills within the first 40 ms (while adding and sending), some later.
      let delay = Int.random(in: 0...(trials % 5 == 0 ? 400 : 40), using: &generator)
      try await Task.sleep(for: .milliseconds(delay))
      kill(process.processIdentifier, SIGKILL)
      await exit.wait(within: .seconds(10))
      let lines = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      for line in lines.split(separator: "\n") where line.hasPrefix("accepted ") {
        if let number = Int(line.dropFirst("accepted ".count)) { reportedAccepted.insert(number) }
      }
      trials += 1
    }
    #expect(trials >= 200)

    // A last run, left alone, finishes what is left.
    let (_, last) = try start(worker, journal: journal, output: output)
    #expect(await last.wait(within: .seconds(60)))
    #expect(last.status == 0)
    #expect(try String(contentsOf: output, encoding: .utf8).contains("done"))

    let applied = try server.applied().filter { !keysBefore.contains($0.key) }
    // Every job applied once, under one key; none applied that was never a job.
    #expect(applied.allSatisfy { $0.applications == 1 })
    #expect(Set(applied.map(\.number)) == Set(0..<jobs))
    #expect(applied.count == jobs, "a job applied under two keys: \(applied)")
    #expect(reportedAccepted.isSubset(of: Set(0..<jobs)))
    // The kills did land between a job's application and its answer: those jobs were sent
    // again with their key and answered without being applied twice.
    let replays = applied.map(\.replays).reduce(0, +)
    print(
      "DurableQueueCrashTests: \(trials) kills, \(reportedAccepted.count) jobs reported accepted "
        + "before the last run, \(replays) answers the server gave again without applying")
  }
}
