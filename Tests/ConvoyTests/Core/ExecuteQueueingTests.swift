import Dispatch
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that holds every transfer until the test releases it, and counts how many were
/// in flight at once.
private final class HeldTransport: HTTPTransport, @unchecked Sendable {
  private typealias Completion = @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  private let lock = NSLock()
  private var held: [(path: String, completion: Completion)] = []
  private var inFlight = 0
  private(set) var mostInFlight = 0
  private(set) var started: [String] = []
  /// Whether transfers are answered as soon as they start (on another thread), as a server would.
  private var answering = false

  /// Answers every held transfer and, from now on, every new one as soon as it starts.
  func answerEverything() {
    lock.withLock { answering = true }
    for path in startedPaths { complete(path) }
  }

  var startedPaths: [String] { lock.withLock { started } }
  var peakInFlight: Int { lock.withLock { mostInFlight } }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    try await CallbackTransfer.whole(request) { startTransfer(request, completion: $0) }
  }

  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    let path = request.urlRequest.url?.lastPathComponent ?? ""
    let answerAtOnce = lock.withLock {
      held.append((path, completion))
      started.append(path)
      inFlight += 1
      mostInFlight = max(mostInFlight, inFlight)
      return answering
    }
    if answerAtOnce { DispatchQueue.global().async { self.complete(path) } }
    return Handle { [weak self] in self?.complete(path, with: nil) }
  }

  /// Answers the held transfer for `path` (200, its path as the body), or fails it as cancelled.
  func complete(_ path: String, with status: Int? = 200) {
    let entry = lock.withLock { () -> (path: String, completion: Completion)? in
      guard let index = held.firstIndex(where: { $0.path == path }) else { return nil }
      inFlight -= 1
      return held.remove(at: index)
    }
    guard let entry else { return }
    guard let status else {
      entry.completion(.failure(TransportFailure(kind: .cancelled, detail: "cancelled")))
      return
    }
    let url = URL(string: "https://api.example.com/\(path)")!
    let response = HTTPURLResponse(
      url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
    entry.completion(
      .success(
        TransportResponse(
          httpURLResponse: response, data: Data(path.utf8),
          metrics: TransferMetrics(
            startDate: Date(), duration: 0, bytesReceived: path.utf8.count, bytesSent: 0))))
  }

  private struct Handle: TransferHandle {
    let action: @Sendable () -> Void
    func cancel() { action() }
  }
}

private struct Numbered: RequestDescribing {
  typealias Response = DataResponse
  var number: Int
  var method: HTTPMethod { .get }
  var path: String { "n\(number)" }
}

/// `execute` runs its call as a `NetworkRequestOperation` on the connection's network queue, with
/// the awaiting task doing the work: these tests pin what that must keep from a job.
@Suite struct ExecuteQueueingTests {
  private func connection(limit: Int) -> (ServerConnection, HeldTransport) {
    let transport = HeldTransport()
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com/")!),
      transport: transport, networkConcurrencyLimit: limit)
    return (connection, transport)
  }

  @Test func callsWaitForAFreeSlotUnderTheNetworkLimit() async throws {
    let (connection, transport) = connection(limit: 2)
    let calls = (0..<5).map { number in
      Task { try await connection.execute(Numbered(number: number)).data }
    }
    try #require(await eventually { transport.startedPaths.count == 2 })
    try #require(await eventually { connection.jobQueues.network.operationCount == 5 })
    // All five are on the queue and two in the transport: the others wait on the queue. A third
    // that started later would show in `peakInFlight` below.
    #expect(transport.startedPaths.count == 2)
    var answered = 0
    while answered < 5 {
      try #require(await eventually { transport.startedPaths.count > answered })
      transport.complete(transport.startedPaths[answered])
      answered += 1
    }
    for (number, call) in calls.enumerated() {
      #expect(try await call.value == Data("n\(number)".utf8))
    }
    #expect(transport.peakInFlight == 2)
    try #require(await eventually { connection.jobQueues.network.operationCount == 0 })
  }

  @Test func aCallCancelledWhileWaitingForASlotEndsAtOnceAndIsNeverSent() async throws {
    let (connection, transport) = connection(limit: 1)
    let first = Task { try await connection.execute(Numbered(number: 1)) }
    try #require(await eventually { transport.startedPaths == ["n1"] })
    let second = Task { try await connection.execute(Numbered(number: 2)) }
    try #require(await eventually { connection.jobQueues.network.operationCount == 2 })
    second.cancel()
    // The first call still holds the only slot: the second must end without waiting for it.
    let secondEnded = Locked(false)
    Task {
      _ = try? await second.value
      secondEnded.withLock { $0 = true }
    }
    let endedAtOnce = await eventually { secondEnded.current }
    transport.complete("n1")
    #expect(endedAtOnce)
    await #expect {
      try await second.value
    } throws: { error in
      (error as? ServerConnectionError) == .cancelled
    }
    _ = try await first.value
    try #require(await eventually { connection.jobQueues.network.operationCount == 0 })
    #expect(transport.startedPaths == ["n1"])
  }

  @Test func aCallFromAnAlreadyCancelledTaskSendsNothing() async throws {
    let (connection, transport) = connection(limit: 1)
    let call = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await connection.execute(Numbered(number: 1))
    }
    await #expect {
      try await call.value
    } throws: { error in
      (error as? ServerConnectionError) == .cancelled
    }
    try #require(await eventually { connection.jobQueues.network.operationCount == 0 })
    #expect(transport.startedPaths.isEmpty)
  }

  @Test func cancellingTheTaskMidTransferCancelsTheTransferAndFreesTheSlot() async throws {
    let (connection, transport) = connection(limit: 1)
    let call = Task { try await connection.execute(Numbered(number: 1)) }
    try #require(await eventually { transport.startedPaths == ["n1"] })
    call.cancel()
    await #expect {
      try await call.value
    } throws: { error in
      (error as? ServerConnectionError) == .cancelled
    }
    try #require(await eventually { connection.jobQueues.network.operationCount == 0 })
    // The freed slot serves the next call.
    let next = Task { try await connection.execute(Numbered(number: 2)).data }
    try #require(await eventually { transport.startedPaths == ["n1", "n2"] })
    transport.complete("n2")
    #expect(try await next.value == Data("n2".utf8))
  }

  @Test func manyCallsWithRandomCancellationsAllEndAndDrainTheQueue() async throws {
    let (connection, transport) = connection(limit: 3)
    // Every call that is not cancelled gets its answer.
    transport.answerEverything()
    let outcomes = await withTaskGroup(of: Bool?.self) { group in
      for number in 0..<200 {
        let call = Task { try await connection.execute(Numbered(number: number)).data }
        group.addTask {
          if Bool.random() {
            // A cancel at a random moment of the call: after other work ran a random number of
            // times, not after a guessed time.
            for _ in 0..<Int.random(in: 0...200) { await Task.yield() }
            call.cancel()
          }
          do {
            return try await call.value == Data("n\(number)".utf8)
          } catch {
            return (error as? ServerConnectionError) == .cancelled ? nil : false
          }
        }
      }
      var all: [Bool?] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    #expect(outcomes.count == 200)
    #expect(!outcomes.contains(false))
    #expect(transport.peakInFlight <= 3)
    try #require(await eventually { connection.jobQueues.network.operationCount == 0 })
  }
}
