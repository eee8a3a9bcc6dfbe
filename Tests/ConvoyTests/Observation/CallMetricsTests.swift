import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct Thing: RequestDescribing {
  typealias Response = JSONResponse<[String: Int]>
  var method: HTTPMethod { .get }
  var path: String { "thing" }
}

private struct Numbered: RequestDescribing {
  typealias Response = DataResponse
  var number: Int
  var method: HTTPMethod { .get }
  var path: String { "n\(number)" }
}

/// Holds every transfer until the test answers it.
private final class HeldTransport: HTTPTransport, @unchecked Sendable {
  private typealias Completion = @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  private let held = Locked<[(path: String, completion: Completion)]>([])

  var startedPaths: [String] { held.current.map(\.path) }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    try await CallbackTransfer.whole(request) { startTransfer(request, completion: $0) }
  }

  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    let path = request.urlRequest.url?.lastPathComponent ?? ""
    held.withLock { $0.append((path, completion)) }
    return NoHandle()
  }

  func answer(_ path: String) {
    let completion = held.withLock { held in held.first(where: { $0.path == path })?.completion }
    let url = URL(string: "https://api.example.com/\(path)")!
    completion?(
      .success(
        TransportResponse(
          head: HTTPResponse(statusCode: 200, url: url, headers: [:]), data: Data(path.utf8),
          metrics: TransferMetrics(
            startDate: Date(), duration: 0, bytesReceived: path.utf8.count, bytesSent: 0))))
  }

  private struct NoHandle: TransferHandle {
    func cancel() {}
  }
}

/// Every call's metrics: on the answer a caller gets without any observer, and on the event that
/// ends the call.
@Suite struct CallMetricsTests {
  private func connection(
    retries: Int = 2, cache: HTTPCache? = nil,
    _ respond: @escaping @Sendable (TransportRequest) -> StubTransport.Answer
  ) -> (ServerConnection, Locked<[ConvoyEvent]>) {
    let events = Locked<[ConvoyEvent]>([])
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/")!)
    configuration.retryPolicy = RetryPolicy(maximumRetries: retries, baseDelay: 0, jitter: 0)
    let connection = ServerConnection(
      configuration: configuration, transport: StubTransport(respond: respond), cache: cache,
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
    return (connection, events)
  }

  private func lastFinished(_ events: Locked<[ConvoyEvent]>) -> ConvoyEvent.RequestFinished? {
    events.current.lazy.compactMap { event -> ConvoyEvent.RequestFinished? in
      guard case .requestFinished(let finished) = event.kind else { return nil }
      return finished
    }.last
  }

  @Test func anAnswerCarriesItsCallsMetricsWithoutAnyObserver() async throws {
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com/")!),
      transport: StubTransport { _ in .json(["n": 1]) })
    let answer = try await connection.execute(Thing())
    let metrics = try #require(answer.metrics)
    #expect(metrics.attempts == 1)
    #expect(metrics.redirects == 0)
    #expect(metrics.duration >= 0)
    #expect(metrics.queuedDuration >= 0)
    #expect(metrics.transfers.count == 1)
    #expect(metrics.lastTransfer?.bytesReceived == 7)
    #expect(metrics.cacheOutcome == nil)
    #expect(!metrics.isCoalesced)
  }

  @Test func theFinishingEventCarriesTheSameAttemptsAsTheAnswer() async throws {
    let (connection, events) = connection { _ in .json(["n": 1]) }
    let answer = try await connection.execute(Thing())
    let finished = try #require(lastFinished(events))
    let metrics = try #require(finished.metrics)
    #expect(metrics.attempts == answer.metrics?.attempts)
    #expect(metrics.transfers == answer.metrics?.transfers)
    // The event's duration runs to the end of the call, past the answer's arrival.
    #expect(metrics.duration >= (answer.metrics?.duration ?? .infinity))
  }

  @Test func aRetriedCallCountsEveryAttemptAndKeepsEachTransfer() async throws {
    let answers = StubAnswer.sequence([.status(503), .status(503), .json(["n": 1])])
    let (connection, events) = connection(retries: 2) { _ in answers }
    let answer = try await connection.execute(Thing())
    #expect(answer.metrics?.attempts == 3)
    #expect(answer.metrics?.transfers.count == 3)
    #expect(lastFinished(events)?.metrics?.attempts == 3)
  }

  @Test func aFailedCallsEventCarriesItsMetrics() async throws {
    let (connection, events) = connection(retries: 0) { _ in .status(404) }
    await #expect(throws: ServerConnectionError.self) { try await connection.execute(Thing()) }
    let failed = try #require(
      events.current.lazy.compactMap { event -> ConvoyEvent.RequestFailed? in
        guard case .requestFailed(let failed) = event.kind else { return nil }
        return failed
      }.first)
    #expect(failed.metrics?.attempts == 1)
    #expect(failed.metrics?.transfers.first?.bytesReceived == 0)
  }

  @Test func aTransportFailureCountsAsAnAttemptWithoutATransfer() async throws {
    let answers = StubAnswer.sequence([
      .failure(TransportFailure(kind: .networkConnectionLost, detail: "lost")), .json([:]),
    ])
    let (connection, events) = connection(retries: 1) { _ in answers }
    let answer = try await connection.execute(Thing())
    #expect(answer.metrics?.attempts == 2)
    #expect(answer.metrics?.transfers.count == 1)
    #expect(lastFinished(events)?.metrics?.attempts == 2)
  }

  @Test func followedRedirectsAreCounted() async throws {
    let (connection, _) = connection { request in
      request.urlRequest.url?.path == "/thing"
        ? .status(302, headers: ["Location": "/moved"]) : .json(["n": 2])
    }
    let answer = try await connection.execute(Thing())
    #expect(answer.metrics?.redirects == 1)
    #expect(answer.metrics?.attempts == 1)
  }

  @Test func theCacheOutcomeIsReportedAsMissHitAndRevalidated() async throws {
    let served = Locked(0)
    let (connection, _) = connection(cache: HTTPCache()) { request in
      served.withLock { $0 += 1 }
      if request.urlRequest.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"" {
        return .status(304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"])
      }
      return .json(["n": 1], headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=0"])
    }
    #expect(try await connection.execute(Thing()).metrics?.cacheOutcome == .miss)
    #expect(try await connection.execute(Thing()).metrics?.cacheOutcome == .revalidated)
    #expect(served.current == 2)

    let (fresh, _) = self.connection(cache: HTTPCache()) { _ in
      .json(["n": 1], headers: ["Cache-Control": "max-age=600"])
    }
    #expect(try await fresh.execute(Thing()).metrics?.cacheOutcome == .miss)
    let hit = try #require(try await fresh.execute(Thing()).metrics)
    #expect(hit.cacheOutcome == .hit)
    #expect(hit.lastTransfer?.isReusedConnection == nil)
  }

  @Test func onlyTheCallersWhoJoinedAnotherTransferAreMarkedCoalesced() async throws {
    let held = HeldTransport()
    let coalescing = CoalescingTransport(wrapping: held)
    let request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://a.test/x")!))
    let results = Locked<[Int: Bool]>([:])
    let bothAnswered = AsyncStream<Void>.makeStream()
    for caller in 0..<2 {
      // Joined in order, as `send` joins before it first suspends.
      _ = coalescing.join(request) { result in
        let isCoalesced = (try? result.get())?.metrics.isCoalesced ?? false
        let count = results.withLock { results in
          results[caller] = isCoalesced
          return results.count
        }
        if count == 2 { bothAnswered.continuation.finish() }
      }
    }
    // The shared transfer starts in a task of its own.
    #expect(await eventually { held.startedPaths == ["x"] })
    held.answer("x")
    for await _ in bothAnswered.stream {}
    #expect(results.current == [0: false, 1: true])
  }

  @Test func aCallThatWaitedForASlotReportsTheWait() async throws {
    let held = HeldTransport()
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com/")!),
      transport: held, networkConcurrencyLimit: 1)
    let first = Task { try await connection.execute(Numbered(number: 1)) }
    try #require(await eventually { held.startedPaths == ["n1"] })
    let second = Task { try await connection.execute(Numbered(number: 2)) }
    try #require(await eventually { connection.jobQueues.network.operationCount == 2 })
    let seenQueued = Date()
    try #require(await eventually { held.startedPaths == ["n1"] })
    let released = Date()
    held.answer("n1")
    _ = try await first.value
    try #require(await eventually { held.startedPaths == ["n1", "n2"] })
    held.answer("n2")
    let waited = try #require(try await second.value.metrics)
    // The second call was queued before `seenQueued` and left the queue after `released`: its
    // wait covers at least that span (a lower bound only, so a slow machine cannot fail it).
    #expect(waited.queuedDuration > 0)
    #expect(waited.queuedDuration >= released.timeIntervalSince(seenQueued))
  }

  @Test func aStreamsLastEventCarriesItsBodysWholeTransfer() async throws {
    let (connection, events) = connection { _ in .json(["n": 12345]) }
    let stream = try await connection.stream(Thing())
    #expect(stream.head.metrics?.attempts == 1)
    var received = 0
    for try await chunk in stream.body { received += chunk.count }
    try #require(await eventually { lastFinished(events) != nil })
    let metrics = try #require(lastFinished(events)?.metrics)
    #expect(metrics.attempts == 1)
    #expect(metrics.lastTransfer?.bytesReceived == received)
  }

  @Test func aRecorderServesOnlyTheFirstCallThatClaimsIt() {
    let recorder = CallMetricsRecorder()
    #expect(recorder.claim() === recorder)
    // A later call on the same pipeline (a stream's reconnection) gets a recorder of its own.
    #expect(recorder.claim() == nil)
  }
}
