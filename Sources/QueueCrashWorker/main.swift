// A process that the durable queue's crash tests kill at random moments
// (Tests/ConvoyIntegrationTests/DurableQueueCrashTests.swift): it opens a journal, adds the jobs
// 0..<count that the journal does not hold yet, printing "accepted <n>" once each `add` returned,
// then sends them to `POST <base>/jobs/<n>` and prints "done" when none is left.
//
// Usage: QueueCrashWorker <journal> <base URL> <count>
import Convoy
import Foundation

/// One job: apply number `number`, a `POST`, so it carries an idempotency key.
struct ApplyJob: DurableRequest {
  static let durableName = "crash-test.apply"
  typealias Response = EmptyResponse
  let number: Int
  var method: HTTPMethod { .post }
  var path: String { "jobs/\(number)" }
}

/// Job `number`'s identity, the same in every run, so that a run knows what an earlier one added.
func jobID(_ number: Int) -> UUID {
  UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let base = URL(string: arguments[2]), let count = Int(arguments[3])
else {
  FileHandle.standardError.write(
    Data("usage: QueueCrashWorker <journal> <base URL> <count>\n".utf8))
  exit(64)
}
var configuration = ServerConfiguration(environment: .local, baseURL: base)
configuration.timeout = 10
let queue = DurableJobQueue(
  connection: ServerConnection(configuration: configuration),
  fileURL: URL(fileURLWithPath: arguments[1]))
queue.register(ApplyJob.self)
try await queue.start()
var known = Set(try await queue.unfinishedJobs().map(\.id))
known.formUnion(try await queue.keptOutcomes().map(\.jobID))
for number in 0..<count where !known.contains(jobID(number)) {
  try await queue.add(
    DurableJob(
      id: jobID(number), steps: [.request(ApplyJob(number: number))],
      constraints: DurableJobConstraints(maximumAttempts: 1_000, baseDelay: 0.01, maximumDelay: 0.1)
    ))
  say("accepted \(number)")
}
while try await !queue.unfinishedJobs().isEmpty {
  try await Task.sleep(for: .milliseconds(10))
}
let failed = try await queue.keptOutcomes().filter { $0.ending != .succeeded }
say(failed.isEmpty ? "done" : "failed \(failed)")
queue.stop()
