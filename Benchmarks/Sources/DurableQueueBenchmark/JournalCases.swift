import BenchmarkSupport
import Convoy
import Foundation

/// The typical job's one step: a POST with a small JSON body.
struct PlaceOrder: DurableRequest {
  static let durableName = "place-order"
  typealias Response = EmptyResponse
  let itemID: Int
  let quantity: Int
  let customer: String
  let note: String
  var method: HTTPMethod { .post }
  var path: String { "orders" }
  var body: RequestBody? { .json(self) }
}

/// A transport that never answers: the queue's runner takes the first job up and waits on its
/// step for as long as the queue runs, so the journal only grows while jobs are added, and a
/// restart finds every job still pending.
struct NeverAnsweringTransport: HTTPTransport {
  nonisolated(nonsending) func send(_ request: TransportRequest) async throws(TransportFailure)
    -> TransportAnswer
  {
    while !Task.isCancelled, !request.cancellation.isCancelled {
      try? await Task.sleep(for: .seconds(1))
    }
    throw TransportFailure(kind: .cancelled, detail: "the queue stopped")
  }
}

/// What one timed case did.
struct Measurement {
  var seconds: Double
  var cpuSeconds: Double
  var jobs: Int

  var jobsPerSecond: Double { Double(jobs) / seconds }
  var cpuMicrosecondsPerJob: Double { cpuSeconds / Double(jobs) * 1e6 }
}

/// Times `work`: wall clock and this process's CPU.
func measure(jobs: Int, _ work: () async throws -> Void) async rethrows -> Measurement {
  let cpu = processCPUTime()
  let start = ContinuousClock.now
  try await work()
  let elapsed = start.duration(to: .now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Measurement(seconds: seconds, cpuSeconds: processCPUTime() - cpu, jobs: jobs)
}

/// Times `work`, which does not suspend: wall clock and this process's CPU.
func measureNow(jobs: Int, _ work: () throws -> Void) rethrows -> Measurement {
  let cpu = processCPUTime()
  let start = ContinuousClock.now
  try work()
  let elapsed = start.duration(to: .now)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Measurement(seconds: seconds, cpuSeconds: processCPUTime() - cpu, jobs: jobs)
}

/// `count` typical jobs: one POST step each, with a JSON body of about 100 bytes.
func makeJobs(_ count: Int) throws -> [DurableJob] {
  try (0..<count).map { index in
    try DurableJob(steps: [
      .request(
        PlaceOrder(
          itemID: 10_000 + index, quantity: 1 + index % 5, customer: "customer-\(index % 97)",
          note: "Leave it with the neighbour if nobody answers."))
    ])
  }
}

/// A queue on a journal at `fileURL`, whose steps never get an answer.
func makeQueue(fileURL: URL) -> DurableJobQueue {
  let connection = ServerConnection(
    configuration: .local(port: 9), transport: NeverAnsweringTransport())
  let queue = DurableJobQueue(connection: connection, fileURL: fileURL)
  queue.register(PlaceOrder.self)
  return queue
}

/// How a case hands its jobs to the queue.
enum Adding {
  /// One `add` after the other.
  case oneAtATime
  /// `add(contentsOf:)` with this many jobs at a time.
  case batches(Int)
  /// This many tasks at once, each awaiting its own `add` before its next.
  case concurrently(Int)
}

/// Adds `jobs` to a fresh journal at `fileURL` as `adding` says, and times the adds.
func journalEnqueue(_ jobs: [DurableJob], adding: Adding, fileURL: URL) async throws
  -> Measurement
{
  let queue = makeQueue(fileURL: fileURL)
  try await queue.start()
  defer { queue.stop() }
  return try await measure(jobs: jobs.count) {
    switch adding {
    case .oneAtATime:
      for job in jobs { try await queue.add(job) }
    case .batches(let size):
      for start in stride(from: 0, to: jobs.count, by: size) {
        try await queue.add(contentsOf: Array(jobs[start..<min(start + size, jobs.count)]))
      }
    case .concurrently(let tasks):
      try await withThrowingTaskGroup(of: Void.self) { group in
        for lane in 0..<tasks {
          group.addTask {
            for index in stride(from: lane, to: jobs.count, by: tasks) {
              try await queue.add(jobs[index])
            }
          }
        }
        try await group.waitForAll()
      }
    }
  }
}

/// Times `DurableJobQueue.start()` on the journal at `fileURL`: open, replay, and the runner
/// started; checks that `expected` jobs came back.
func journalRestart(fileURL: URL, expected: Int) async throws -> Measurement {
  let queue = makeQueue(fileURL: fileURL)
  let measurement = try await measure(jobs: expected) { try await queue.start() }
  let found = try await queue.unfinishedJobs().count
  queue.stop()
  guard found == expected else {
    throw BenchmarkFailure("the journal gave back \(found) jobs, not \(expected)")
  }
  return measurement
}
