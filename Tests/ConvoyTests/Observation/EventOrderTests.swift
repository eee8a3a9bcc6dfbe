import Convoy
import ConvoyTesting
import Foundation
import Testing

private struct Thing: RequestDescribing {
  typealias Response = JSONResponse<[String: Int]>
  var method: HTTPMethod { .get }
  var path: String { "thing" }
}

@Suite struct EventOrderTests {
  private func observed(
    retries: Int = 2, _ respond: @escaping @Sendable (TransportRequest) -> StubTransport.Answer
  ) -> (ServerConnection, Locked<[ConvoyEvent]>) {
    let events = Locked<[ConvoyEvent]>([])
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/")!)
    configuration.retryPolicy = RetryPolicy(maximumRetries: retries, baseDelay: 0, jitter: 0)
    let connection = ServerConnection(
      configuration: configuration, transport: StubTransport(respond: respond),
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
    return (connection, events)
  }

  private func names(_ events: Locked<[ConvoyEvent]>) -> [String] {
    events.current.map { event in
      guard case .decisionTaken(let decision) = event.kind else { return event.name.rawValue }
      return "\(decision.decision):\(decision.outcome.rawValue)"
    }
  }

  @Test func aSuccessfulCallReportsEveryStepInOrder() async throws {
    let (connection, events) = observed { _ in .json(["n": 1]) }
    _ = try await connection.execute(Thing())
    #expect(
      names(events) == [
        "request.created", "request.adapted", "request.sent", "response.received",
        "RetryDecision:proceed", "StatusValidation:proceed", "ResponseDecoding:done",
        "request.finished",
      ])
    let received = try #require(
      events.current.lazy.compactMap { event -> ConvoyEvent.ResponseReceived? in
        guard case .responseReceived(let response) = event.kind else { return nil }
        return response
      }.first)
    #expect(received.status == 200)
    #expect(received.bytes == 7)
    #expect(received.url == "https://api.example.com/thing")
    #expect(received.call.method == .get)
    #expect(Set(events.current.map(\.call?.id)) == [received.call.id])
    let adapted = try #require(
      events.current.lazy.compactMap { event -> ConvoyEvent.RequestAdapted? in
        guard case .requestAdapted(let adapted) = event.kind else { return nil }
        return adapted
      }.first)
    #expect(adapted.headers["User-Agent"] != nil)
  }

  @Test func aRetriedCallReportsTheRetryBetweenAttempts() async throws {
    let sends = Locked(0)
    let (connection, events) = observed { _ in
      sends.withLock { count in
        count += 1
        return count == 1 ? .status(503) : .json(["n": 2])
      }
    }
    _ = try await connection.execute(Thing())
    #expect(
      names(events) == [
        "request.created", "request.adapted", "request.sent", "response.received",
        "RetryDecision:retry", "request.retried",
        "request.adapted", "request.sent", "response.received",
        "RetryDecision:proceed", "StatusValidation:proceed", "ResponseDecoding:done",
        "request.finished",
      ])
    let attempts = events.current.compactMap { event -> Int? in
      guard case .requestSent(let sent) = event.kind else { return nil }
      return sent.attempt
    }
    #expect(attempts == [1, 2])
  }

  @Test func aFailedCallEndsWithOneFailureCarryingItsCategory() async throws {
    let (connection, events) = observed(retries: 0) { _ in
      .json(["reason": "No such thing."], status: 404)
    }
    _ = try? await connection.execute(Thing())
    #expect(
      names(events).suffix(3) == [
        "RetryDecision:proceed", "StatusValidation:fail", "request.failed",
      ])
    guard case .requestFailed(let failed) = events.current.last?.kind else {
      Issue.record("the call did not end with request.failed")
      return
    }
    #expect(failed.errorCategory == .notFound)
    #expect(failed.status == 404)
    #expect(failed.reason.contains("No such thing."))
  }

  @Test func aCancelledCallEndsWithOneCancellation() async throws {
    let (connection, events) = observed { _ in .delayed(10, .status(200)) }
    let task = Task { try await connection.execute(Thing()) }
    try #require(await eventually { events.current.contains { $0.name == .requestSent } })
    task.cancel()
    _ = await task.result
    #expect(
      names(events) == ["request.created", "request.adapted", "request.sent", "request.cancelled"])
  }

  @Test func theActivityCounterReturnsToZeroWhateverHappens() async throws {
    let counter = NetworkActivityCounter()
    let connection = ServerConnection(
      configuration: .local(port: 9),
      transport: StubTransport { request in
        // The slow calls stay in flight until cancelled, however slow the machine.
        request.urlRequest.url?.path == "/slow" ? .delayed(3_600, .status(200)) : .status(500)
      }, observers: [counter])
    struct Call: RequestDescribing {
      typealias Response = EmptyResponse
      var path: String
      var method: HTTPMethod { .get }
      var retryPolicy: RetryPolicy? { .never }
    }
    let slow = (0..<5).map { _ in Task { try await connection.execute(Call(path: "slow")) } }
    let failing = (0..<5).map { _ in Task { try await connection.execute(Call(path: "fail")) } }
    for task in failing { _ = await task.result }
    // The five slow calls are in flight; the five failed ones are over.
    #expect(await eventually { counter.count == 5 })
    for task in slow { task.cancel() }
    for task in slow { _ = await task.result }
    #expect(counter.count == 0)
  }
}
