import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A job the full-disk test adds: a `POST` with a body, so each takes a few hundred bytes.
private struct Order: DurableRequest {
  static let durableName = "full-disk.order"
  typealias Response = EmptyResponse
  let number: Int
  let note: String
  var method: HTTPMethod { .post }
  var path: String { "orders/\(number)" }
  var body: RequestBody? { .json(["note": note]) }
}

/// A durable queue on a disk that fills up: a small tmpfs mounted by the test (root only).
@Suite(.timeLimit(.minutes(1))) struct DurableQueueFullDiskTests {
  /// Runs `command` with `arguments`; whether it exited 0.
  private func run(_ command: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  private func queue(journal: URL) -> DurableJobQueue {
    // Steps never answered: the test is about accepting jobs, not sending them.
    let transport = StubTransport { _ in .delayed(3_600, .status(204)) }
    let queue = DurableJobQueue(
      connection: ServerConnection(configuration: .local(port: 8080), transport: transport),
      fileURL: journal)
    queue.register(Order.self)
    return queue
  }

  @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
  func aFullDiskRefusesTheJobWithATypedErrorAndLosesNoAcceptedOne() async throws {
    let mountPoint = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-full-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: mountPoint) }
    try #require(
      run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]),
      "could not mount a tmpfs")
    defer { _ = run("/bin/umount", [mountPoint.path]) }
    let journal = mountPoint.appendingPathComponent("jobs.journal")

    let first = queue(journal: journal)
    try await first.start()
    var accepted: [UUID] = []
    var refusal: DurableJobQueueError?
    for number in 0..<5_000 {
      let job = try DurableJob(
        steps: [.request(Order(number: number, note: String(repeating: "n", count: 200)))])
      do {
        try await first.add(job)
        accepted.append(job.id)
      } catch let error as DurableJobQueueError {
        refusal = error
        break
      }
    }
    first.stop()
    let error = try #require(refusal, "the tmpfs never filled up")
    #expect(error.kind == .storage)
    #expect(error.category == .fileNotSaved)
    #expect(ErrorMessageProvider.standard.message(for: error) != nil)
    #expect(accepted.count > 10)

    // Every job `add` returned for is in the journal; the refused one is not.
    let second = queue(journal: journal)
    try await second.start()
    #expect(try await second.unfinishedJobs().map(\.id) == accepted)
    second.stop()
  }
}
