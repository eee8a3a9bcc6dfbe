import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A tus server in a closure: one upload at a time, its bytes in memory; it can forget the
/// upload (as an expired one), drop a part's connection, or claim another offset.
private final class FakeTusServer: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var received = Data()
  private var length = 0
  private var exists = false
  private(set) var creations = 0
  private(set) var heads = 0
  /// Parts whose connection drops after the server kept their bytes (the answer is lost).
  var dropAnswersOfParts: Set<Int> = []
  private var parts = 0

  func forgetTheUpload() { lock.withLock { exists = false } }

  func answer(_ request: TransportRequest) -> StubAnswer {
    lock.withLock {
      let headers = request.urlRequest.allHTTPHeaderFields ?? [:]
      let body = request.urlRequest.httpBody ?? Data()
      switch (request.urlRequest.httpMethod ?? "GET", request.urlRequest.url?.path ?? "") {
      case ("POST", "/files"):
        creations += 1
        length = Int(headers["Upload-Length"] ?? "") ?? -1
        received = Data()
        exists = true
        return .status(
          201, headers: ["Location": "/files/upload-\(creations)", "Tus-Resumable": "1.0.0"])
      case ("HEAD", _):
        heads += 1
        guard exists else { return .status(404) }
        return .status(
          200, headers: ["Upload-Offset": "\(received.count)", "Upload-Length": "\(length)"])
      case ("PATCH", _):
        guard exists else { return .status(404) }
        guard headers["Upload-Offset"] == "\(received.count)" else { return .status(409) }
        received.append(body)
        parts += 1
        if dropAnswersOfParts.contains(parts) {
          return .failure(TransportFailure(kind: .networkConnectionLost, detail: "dropped"))
        }
        return .status(204, headers: ["Upload-Offset": "\(received.count)"])
      default:
        return .status(400)
      }
    }
  }
}

@Suite(.timeLimit(.minutes(1))) struct ResumableUploadTests {
  private let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-upload-\(UUID().uuidString)", isDirectory: true)
  private let clock = TestClock()

  private func setUp(_ server: FakeTusServer, events: Recorder<ConvoyEvent>? = nil) throws
    -> (DurableJobQueue, URL, Data)
  {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let file = directory.appendingPathComponent("photo.jpg")
    try bytes.write(to: file)
    let transport = StubTransport { server.answer($0) }
    transport.clock = clock
    var configuration = ServerConfiguration.local(port: 8080)
    configuration.clock = clock
    configuration.retryPolicy = .never
    let queue = DurableJobQueue(
      connection: ServerConnection(
        configuration: configuration, transport: transport,
        observers: events.map { events in [AnyEventObserver { events.append($0) }] } ?? []),
      fileURL: directory.appendingPathComponent("jobs.journal"))
    return (queue, file, bytes)
  }

  private func outcome(of queue: DurableJobQueue) async -> DurableJobOutcome? {
    for await outcome in queue.outcomes() { return outcome }
    return nil
  }

  private func changes(_ events: Recorder<ConvoyEvent>) -> [ConvoyEvent.DurableJobChanged] {
    events.all.compactMap { event in
      guard case .durableJob(let changed) = event.kind else { return nil }
      return changed
    }
  }

  @Test func aDroppedPartIsNotSentTwiceTheUploadGoesOnFromTheServersOffset() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = FakeTusServer()
    server.dropAnswersOfParts = [2]
    let events = Recorder<ConvoyEvent>()
    let (queue, file, bytes) = try setUp(server, events: events)
    try await queue.start()
    try await queue.add(
      DurableJob(steps: [.resumableUpload(of: file, to: "files", partSize: 3_000)]))
    let ended = try await drivingClock(clock) { await outcome(of: queue) }
    queue.stop()
    #expect(ended?.ending == .succeeded)
    #expect(server.received == bytes)
    #expect(server.creations == 1)
    let resumed = changes(events).filter { $0.change == .uploadResumed }
    #expect(resumed.map(\.uploadOffset) == [6_000])
  }

  @Test func anUploadTheServerForgotStartsAgainFromTheFirstByte() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = FakeTusServer()
    server.dropAnswersOfParts = [1]
    let events = Recorder<ConvoyEvent>()
    let (queue, file, bytes) = try setUp(server, events: events)
    try await queue.start()
    try await queue.add(
      DurableJob(steps: [.resumableUpload(of: file, to: "files", partSize: 4_000)]))
    #expect(await clock.waitForWakeUp(in: 1))
    server.forgetTheUpload()
    let ended = try await drivingClock(clock) { await outcome(of: queue) }
    queue.stop()
    #expect(ended?.ending == .succeeded)
    #expect(server.received == bytes)
    #expect(server.creations == 2)
    #expect(changes(events).contains { $0.change == .uploadRestarted })
  }

  @Test func aFileThatChangedFailsTheStepRatherThanMixingTwoFiles() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = FakeTusServer()
    let (queue, file, _) = try setUp(server)
    let step = try DurableJobStep.resumableUpload(of: file, to: "files")
    try Data("another photo".utf8).write(to: file)
    try await queue.start()
    try await queue.add(DurableJob(steps: [step]))
    let ended = await outcome(of: queue)
    queue.stop()
    guard case .failed(_, let category, _)? = ended?.ending else {
      Issue.record("expected a failure, got \(String(describing: ended))")
      return
    }
    #expect(category == .uploadSourceFailed)
    #expect(server.creations == 0)
  }
}
