import Convoy
import ConvoyPostgres
import Foundation
import PostgresNIO

// convoy-queue-worker: one of several processes that drain one DurableJobQueue kept in
// PostgreSQL, as the machines of a server-side app would. The integrations tests start two and
// kill one mid-job (PostgresQueueWorkersTests); it is not a product for apps.
//
//   convoy-queue-worker <postgres port> <table> <server port> <claim seconds> <worker name>
//
// It sends each step of the table's jobs to http://127.0.0.1:<server port>/, naming itself in
// an `X-Worker` header, and exits 0 once no job of the table is unfinished (2 after 120 s).

/// The request the tests' jobs hold: step `step` of job `job`.
struct ApplyStep: DurableRequest {
  static let durableName = "apply-step"
  typealias Response = EmptyResponse
  let job: Int
  let step: Int
  var method: HTTPMethod { .post }
  var path: String { "apply/\(job)/\(step)" }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 5, let postgresPort = Int(arguments[0]),
  let serverPort = Int(arguments[2]), let claimDuration = TimeInterval(arguments[3])
else {
  FileHandle.standardError.write(
    Data(
      "usage: convoy-queue-worker <postgres port> <table> <server port> <claim seconds> <name>\n"
        .utf8))
  exit(64)
}
let table = arguments[1]
let name = arguments[4]

let client = PostgresClient(
  configuration: .init(
    host: "127.0.0.1", port: postgresPort, username: "convoy", password: nil,
    database: "postgres", tls: .disable))

/// Runs the queue until the table has no unfinished job; the exit status.
func drain() async -> Int32 {
  do {
    let store = try PostgresJobStore(client: client, tableName: table, newJobsCheckInterval: 0.1)
    var configuration = ServerConfiguration.local(port: serverPort)
    configuration.defaultHeaders.add(name: "X-Worker", value: name)
    let queue = DurableJobQueue(
      connection: ServerConnection(configuration: configuration), store: store,
      claimDuration: claimDuration)
    queue.register(ApplyStep.self)
    try await queue.start()
    defer { queue.stop() }
    let deadline = Date().addingTimeInterval(120)
    while try await !store.unfinishedJobs().isEmpty {
      guard Date() < deadline else { return 2 }
      try await Task.sleep(for: .milliseconds(100))
    }
    return 0
  } catch {
    FileHandle.standardError.write(Data("convoy-queue-worker \(name): \(error)\n".utf8))
    return 1
  }
}

let running = Task { await client.run() }
let status = await drain()
running.cancel()
exit(status)
