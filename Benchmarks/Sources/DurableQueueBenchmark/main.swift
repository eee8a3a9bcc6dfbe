import BenchmarkSupport
import Convoy
import Foundation

// Convoy's durable job queue (a journal: one write + fsync per record) beside the same jobs
// written to SQLite in WAL mode with synchronous=FULL, from this process, on the same
// filesystem: enqueue one at a time, in batches, and a restart with 10,000 pending jobs.
// `swift run -c release --package-path Benchmarks durable-queue-benchmark`
// `memory-case convoy|sqlite <path> <jobs>` is the child that measures one restart's peak RSS.

let environment = ProcessInfo.processInfo.environment
func setting(_ name: String, _ fallback: Int) -> Int {
  environment[name].flatMap(Int.init) ?? fallback
}

let rounds = setting("QUEUE_BENCH_ROUNDS", 5)
let singleJobs = setting("QUEUE_BENCH_JOBS", 2_000)
let batchJobs = setting("QUEUE_BENCH_BATCH_JOBS", 8_000)
let batchSize = setting("QUEUE_BENCH_BATCH", 16)
let pendingJobs = setting("QUEUE_BENCH_PENDING", 10_000)
let root = URL(
  fileURLWithPath: environment["QUEUE_BENCH_DIR"] ?? NSTemporaryDirectory(), isDirectory: true
)
.appendingPathComponent("convoy-queue-bench-\(getpid())", isDirectory: true)

guard let sqlite = SQLiteLibrary.shared else {
  print("libsqlite3.so.0 is not installed: nothing to compare with")
  exit(1)
}

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "memory-case" {
  // One restart in a fresh process: its peak RSS is the restart's.
  let path = arguments[3]
  let expected = Int(arguments[4]) ?? 0
  let before = residentKilobytes()
  let seconds =
    arguments[2] == "convoy"
    ? runBlocking { () -> Double in
      let restart = try? await journalRestart(
        fileURL: URL(fileURLWithPath: path), expected: expected)
      return restart?.seconds ?? -1
    }
    : (try? sqliteRestart(path: path, expected: expected))?.seconds ?? -1
  print("before_kb=\(before) peak_kb=\(peakResidentKilobytes()) seconds=\(seconds)")
  exit(seconds < 0 ? 1 : 0)
}

/// The SQLite cases: `jobs` encoded as the journal encodes them (JSONEncoder) and inserted, one
/// transaction per `batch` rows.
func sqliteEnqueue(_ jobs: [DurableJob], batch: Int, path: String) throws -> Measurement {
  let table = try SQLiteJobTable(library: sqlite, path: path)
  let encoder = JSONEncoder()
  return try measureNow(jobs: jobs.count) {
    for start in stride(from: 0, to: jobs.count, by: batch) {
      if batch > 1 { try table.execute("BEGIN") }
      for job in jobs[start..<min(start + batch, jobs.count)] {
        try table.insert(try encoder.encode(job))
      }
      if batch > 1 { try table.execute("COMMIT") }
    }
  }
}

/// Opens the database at `path` and reads and decodes its jobs, as a store backed by SQLite
/// would on start.
func sqliteRestart(path: String, expected: Int) throws -> Measurement {
  try measureNow(jobs: expected) {
    let table = try SQLiteJobTable(library: sqlite, path: path)
    let decoder = JSONDecoder()
    let jobs = try table.bodies().map { try decoder.decode(DurableJob.self, from: $0) }
    guard jobs.count == expected else { throw BenchmarkFailure("\(jobs.count) rows") }
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}

func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

func run() throws {
  try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: root) }
  let sample = try makeJobs(1)[0]
  printProgress(
    "SQLite \(sqlite.version); one job encoded: \(try JSONEncoder().encode(sample).count) bytes; "
      + "directory \(root.path); load \(loadAverage())")

  // The restart fixtures, written once: 10,000 pending jobs in a journal and in a table.
  let pending = try makeJobs(pendingJobs)
  let journalFixture = root.appendingPathComponent("pending/jobs.journal")
  let fixtureTime = try runBlocking {
    await Result {
      try await journalEnqueue(pending, adding: .batches(batchSize), fileURL: journalFixture)
    }
  }.get()
  let sqliteFixture = root.appendingPathComponent("pending.sqlite").path
  _ = try sqliteEnqueue(pending, batch: pending.count, path: sqliteFixture)
  printProgress(
    String(
      format: "fixtures: journal %d bytes (written in %.1f s), SQLite %d + WAL %d bytes",
      fileSize(journalFixture.path), fixtureTime.seconds, fileSize(sqliteFixture),
      fileSize(sqliteFixture + "-wal")))

  var results: [String: [Measurement]] = [:]
  for round in 1...rounds {
    let directory = root.appendingPathComponent("round-\(round)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let single = try makeJobs(singleJobs)
    let batched = try makeJobs(batchJobs)
    let cases: [(String, () throws -> Measurement)] = [
      (
        "convoy-single",
        {
          try runBlocking {
            await Result {
              try await journalEnqueue(
                single, adding: .oneAtATime,
                fileURL: directory.appendingPathComponent("single.journal"))
            }
          }.get()
        }
      ),
      (
        "sqlite-single",
        { try sqliteEnqueue(single, batch: 1, path: directory.path + "/single.sqlite") }
      ),
      (
        "convoy-batch",
        {
          try runBlocking {
            await Result {
              try await journalEnqueue(
                batched, adding: .batches(batchSize),
                fileURL: directory.appendingPathComponent("batch.journal"))
            }
          }.get()
        }
      ),
      (
        "convoy-concurrent",
        {
          try runBlocking {
            await Result {
              try await journalEnqueue(
                batched, adding: .concurrently(batchSize),
                fileURL: directory.appendingPathComponent("concurrent.journal"))
            }
          }.get()
        }
      ),
      (
        "sqlite-batch",
        { try sqliteEnqueue(batched, batch: batchSize, path: directory.path + "/batch.sqlite") }
      ),
      (
        "convoy-restart",
        {
          try runBlocking {
            await Result {
              try await journalRestart(fileURL: journalFixture, expected: pendingJobs)
            }
          }.get()
        }
      ),
      ("sqlite-restart", { try sqliteRestart(path: sqliteFixture, expected: pendingJobs) }),
    ]
    for (name, body) in cases {
      let measurement = try body()
      results[name, default: []].append(measurement)
      printProgress(
        String(
          format: "round %d %@: %.0f jobs/s, %.1f µs CPU/job, %.1f ms", round, name,
          measurement.jobsPerSecond, measurement.cpuMicrosecondsPerJob,
          measurement.seconds * 1e3))
    }
    try? FileManager.default.removeItem(at: directory)
  }

  func medianOf(_ name: String, _ value: (Measurement) -> Double) -> Double {
    median(results[name, default: []].map(value))
  }
  print("Durable job queue vs SQLite (WAL, synchronous=FULL), medians of \(rounds) rounds")
  print(
    "case".padded(30) + "Convoy".padded(12) + "SQLite".padded(12) + "Convoy/SQLite".padded(15)
      + "CPU µs/job Convoy".padded(19) + "SQLite".padded(9) + "ratio")
  // SQLite's side of the concurrent adds is its batches: one transaction of as many rows.
  let rows = [
    ("enqueue 1 at a time (jobs/s)", "convoy-single", "sqlite-single"),
    ("enqueue \(batchSize) per batch (jobs/s)", "convoy-batch", "sqlite-batch"),
    ("\(batchSize) tasks adding (jobs/s)", "convoy-concurrent", "sqlite-batch"),
  ]
  for (title, convoyKey, sqliteKey) in rows {
    let convoy = medianOf(convoyKey, \.jobsPerSecond)
    let other = medianOf(sqliteKey, \.jobsPerSecond)
    let convoyCPU = medianOf(convoyKey, \.cpuMicrosecondsPerJob)
    let otherCPU = medianOf(sqliteKey, \.cpuMicrosecondsPerJob)
    print(
      title.padded(30) + String(format: "%.0f", convoy).padded(12)
        + String(format: "%.0f", other).padded(12)
        + String(format: "%.2f", convoy / other).padded(15)
        + String(format: "%.1f", convoyCPU).padded(19) + String(format: "%.1f", otherCPU).padded(9)
        + String(format: "%.2f", convoyCPU / otherCPU))
  }
  let convoyRestart = medianOf("convoy-restart", \.seconds) * 1e3
  let sqliteRestartTime = medianOf("sqlite-restart", \.seconds) * 1e3
  let convoyRestartCPU = medianOf("convoy-restart", \.cpuMicrosecondsPerJob)
  let sqliteRestartCPU = medianOf("sqlite-restart", \.cpuMicrosecondsPerJob)
  print(
    "restart, \(pendingJobs) pending (ms)".padded(30)
      + String(format: "%.1f", convoyRestart).padded(12)
      + String(format: "%.1f", sqliteRestartTime).padded(12)
      + String(format: "%.2f", convoyRestart / sqliteRestartTime).padded(15)
      + String(format: "%.1f", convoyRestartCPU).padded(19)
      + String(format: "%.1f", sqliteRestartCPU).padded(9)
      + String(format: "%.2f", convoyRestartCPU / sqliteRestartCPU))

  // Peak RSS of one restart, each store in a fresh process.
  var memory: [String] = []
  for (name, path) in [("convoy", journalFixture.path), ("sqlite", sqliteFixture)] {
    let fields = memoryCaseFields(memoryCaseLine([name, path, "\(pendingJobs)"]))
    memory.append(
      "\(name): peak \(fields["peak_kb"] ?? "?") KiB (\(fields["before_kb"] ?? "?") KiB before)")
  }
  print("restart peak RSS (fresh process) — " + memory.joined(separator: "; "))
  print("load average after: \(loadAverage())")
}

do {
  try run()
} catch {
  print("failed: \(error)")
  exit(1)
}
