import Convoy
import ConvoyTestSupport
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Passes every exchange on, but holds the `PATCH` after the first `partsLetThrough` until the
/// task is cancelled: an app killed in the middle of an upload.
private final class HangingAfterParts: HTTPTransport, @unchecked Sendable {
  private let wrapped: any HTTPTransport
  private let partsLetThrough: Int
  private let parts = Locked(0)
  /// Yields once a part is being held.
  let held: AsyncStream<Void>
  private let holding: AsyncStream<Void>.Continuation

  init(_ wrapped: any HTTPTransport, partsLetThrough: Int) {
    self.wrapped = wrapped
    self.partsLetThrough = partsLetThrough
    (held, holding) = AsyncStream.makeStream(of: Void.self)
  }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    if request.urlRequest.httpMethod == "PATCH" {
      let count = parts.withLock {
        $0 += 1
        return $0
      }
      if count > partsLetThrough {
        holding.yield()
        // Held until the queue stops, which cancels the call.
        do { try await Task.sleep(for: .seconds(600)) } catch {}
        throw TransportFailure(kind: .cancelled, detail: "the app was stopped")
      }
    }
    return try await wrapped.send(request)
  }
}

@Suite(.needs(.tuspyserver), .timeLimit(.minutes(2))) struct ResumableUploadIntegrationTests {
  private let server = TusServer.shared
  private let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-tus-\(UUID().uuidString)", isDirectory: true)

  private func queue(
    over transport: any HTTPTransport, events: Locked<[ConvoyEvent]>? = nil
  ) -> DurableJobQueue {
    var configuration = ServerConfiguration(environment: .local, baseURL: server.baseURL)
    configuration.timeout = 300
    return DurableJobQueue(
      connection: ServerConnection(
        configuration: configuration, transport: transport,
        observers: events.map { events in
          [AnyEventObserver { event in events.withLock { $0.append(event) } }]
        }
          ?? []),
      fileURL: directory.appendingPathComponent("jobs.journal"))
  }

  /// A file of `count` bytes that are not all the same, so a part sent at the wrong offset shows.
  private func file(of count: Int) throws -> (URL, Data) {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    let url = directory.appendingPathComponent("photo.jpg")
    try bytes.write(to: url)
    return (url, bytes)
  }

  private func finishedOutcome(of queue: DurableJobQueue) async -> DurableJobOutcome? {
    for await outcome in queue.outcomes() { return outcome }
    return nil
  }

  @Test func anUploadArrivesWholeInParts() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let (url, bytes) = try file(of: 300_000)
    let queue = queue(over: URLSessionTransport())
    try await queue.start()
    try await queue.add(
      DurableJob(
        steps: [
          .resumableUpload(
            of: url, to: "files", metadata: ["filename": "photo.jpg", "filetype": "image/jpeg"],
            partSize: 64 << 10)
        ]))
    #expect(await finishedOutcome(of: queue)?.ending == .succeeded)
    queue.stop()
    #expect(try uploads(of: bytes.count) == [bytes])
  }

  @Test func anUploadCutOffByARestartGoesOnFromWhereTheServerHasIt() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let (url, bytes) = try file(of: 310_000)
    let job = try DurableJob(
      steps: [
        .resumableUpload(
          of: url, to: "files", metadata: ["filename": "photo.jpg", "filetype": "image/jpeg"],
          partSize: 64 << 10)
      ])
    // The first run sends three parts and is stopped while the fourth is on its way.
    let hanging = HangingAfterParts(URLSessionTransport(), partsLetThrough: 3)
    let first = queue(over: hanging)
    try await first.start()
    try await first.add(job)
    let held = await BoundedWait.value(within: .seconds(30)) {
      for await _ in hanging.held { return true }
      return false
    }
    #expect(held == true)
    first.stop()

    // The next run asks the server how much it has and sends the rest.
    let events = Locked<[ConvoyEvent]>([])
    let second = queue(over: URLSessionTransport(), events: events)
    try await second.start()
    let outcome = await finishedOutcome(of: second)
    #expect(outcome?.ending == .succeeded)
    second.stop()
    let resumed = events.current.compactMap { event -> ConvoyEvent.DurableJobChanged? in
      guard case .durableJob(let changed) = event.kind, changed.change == .uploadResumed else {
        return nil
      }
      return changed
    }
    #expect(resumed.map(\.uploadOffset) == [Int64(3 * (64 << 10))])
    #expect(try uploads(of: bytes.count) == [bytes])
  }

  /// The contents of the server's uploads of `count` bytes (each test uploads its own size).
  private func uploads(of count: Int) throws -> [Data] {
    let names = try FileManager.default.contentsOfDirectory(atPath: server.filesDirectory.path)
      .filter { !$0.hasSuffix(".info") && !$0.hasPrefix(".") }
    return try names.map { try Data(contentsOf: server.filesDirectory.appendingPathComponent($0)) }
      .filter { $0.count == count }
  }
}
