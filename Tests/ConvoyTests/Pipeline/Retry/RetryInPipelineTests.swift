import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Stands for a body that can be read only once, such as a stream.
private let oneShotBody = RequestBody(
  content: .data(Data("x".utf8)), contentType: "text/plain", isReplayable: false)

@Suite(.timeLimit(.minutes(3))) struct RetryInPipelineTests {
  @Test func aTransientStatusIsRetriedTheConfiguredNumberOfTimesThenReported() async {
    let transport = StubTransport { _ in .status(503) }
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(ProbeRequest())
    }
    #expect(error?.statusCode == 503)
    #expect(transport.requests.count == 3)
  }

  @Test func aRetryThatSucceedsReturnsTheValue() async throws {
    let calls = Locked(0)
    let transport = StubTransport { _ in
      calls.next() < 2 ? .status(502) : .json(["ok": true])
    }
    let response = try await probeConnection(transport).execute(ProbeRequest())
    #expect(response.response.statusCode == 200)
    #expect(transport.requests.count == 3)
  }

  @Test func aNotFoundIsNotRetried() async {
    let transport = StubTransport { _ in .status(404) }
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(ProbeRequest())
    }
    #expect(transport.requests.count == 1)
  }

  @Test func aPostIsRetriedOnlyWhenTheRequestOptsIn() async {
    let transport = StubTransport { _ in .status(503) }
    let post = ProbeRequest(method: .post, body: .json(["a": 1]))
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(post)
    }
    #expect(transport.requests.count == 1)
    var optedIn = post
    optedIn.allowsRetry = true
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(optedIn)
    }
    #expect(transport.requests.count == 4)
  }

  @Test func aBodyThatCannotBeReplayedIsNeverRetried() async {
    let transport = StubTransport { _ in .status(503) }
    let request = ProbeRequest(method: .put, body: oneShotBody)
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(request)
    }
    #expect(transport.requests.count == 1)
  }

  @Test func aCustomDecisionCannotResendABodyThatCannotBeReplayed() async throws {
    for outcome in [ResendingDecision.Kind.retry, .restart] {
      let transport = StubTransport { _ in .status(409) }
      var request = ProbeRequest(method: .post, body: oneShotBody)
      request.decisions = [ResendingDecision(kind: outcome)] + ServerConnection.standardDecisions
      let error = await #expect(throws: ServerConnectionError.self) {
        try await probeConnection(transport).execute(request)
      }
      // The answer went on through the chain as it was and failed validation.
      #expect(error?.statusCode == 409)
      #expect(transport.requests.count == 1)
      // A replayable body is resent as the decision asked.
      let replayable = StubTransport { _ in .status(409) }
      request.body = .json(["a": 1])
      request.decisions =
        [ResendingDecision(kind: outcome, times: 1)] + ServerConnection.standardDecisions
      _ = try? await probeConnection(replayable).execute(request)
      #expect(replayable.requests.count == 2)
    }
  }

  @Test func aRedirectDoesNotResendABodyThatCannotBeReplayed() async {
    let transport = StubTransport { request in
      request.urlRequest.url?.path == "/probe"
        ? .status(307, headers: ["Location": "/moved"]) : .json([:])
    }
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(ProbeRequest(method: .post, body: oneShotBody))
    }
    #expect(error?.statusCode == 307)
    #expect(transport.requests.count == 1)
  }

  @Test func aPostIsRetriedAfterARefusedConnectionButNotAfterADroppedOne() async throws {
    let refusedOnce = failingOnce(with: .cannotConnectToHost)
    _ = try await probeConnection(refusedOnce).execute(
      ProbeRequest(method: .post, body: .json(["a": 1])))
    #expect(refusedOnce.requests.count == 2)
    let dropped = StubTransport { _ in
      .failure(TransportFailure(kind: .networkConnectionLost, detail: "dropped"))
    }
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(dropped).execute(ProbeRequest(method: .post, body: .json(["a": 1])))
    }
    #expect(dropped.requests.count == 1)
  }

  @Test func transientTransportFailuresAreRetriedToo() async throws {
    let transport = failingOnce(with: .networkConnectionLost)
    _ = try await probeConnection(transport).execute(ProbeRequest())
    #expect(transport.requests.count == 2)
  }

  @Test func permanentTransportFailuresAreNot() async {
    let transport = StubTransport { _ in
      .failure(TransportFailure(kind: .secureConnectionFailed, detail: "bad certificate"))
    }
    do {
      _ = try await probeConnection(transport).execute(ProbeRequest())
      Issue.record("expected a failure")
    } catch let error as ServerConnectionError {
      guard case .transportFailed(let failure, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(failure.kind == .secureConnectionFailed)
    } catch {
      Issue.record("unexpected \(error)")
    }
    #expect(transport.requests.count == 1)
  }

  @Test func aRequestsOwnPolicyWinsOverTheConfigurations() async {
    let transport = StubTransport { _ in .status(503) }
    let request = ProbeRequest(retryPolicy: RetryPolicy(maximumRetries: 4, baseDelay: 0))
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(request)
    }
    #expect(transport.requests.count == 5)
  }

  @Test func everyAttemptRunsTheAdaptersAgain() async {
    let counter = CountingAdapter()
    let transport = StubTransport { _ in .status(504) }
    await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(ProbeRequest(adapters: [counter]))
    }
    #expect(counter.count.current == 3)
  }

  @Test func observersSeeEveryAttemptAndEveryWait() async {
    let events = Locked<[ConvoyEvent]>([])
    let transport = StubTransport { _ in .status(429, headers: ["Retry-After": "0"]) }
    let connection = observedConnection(transport, events: events)
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(ProbeRequest())
    }
    let summary = events.current.compactMap { event -> String? in
      switch event.kind {
      case .requestSent(let sent): "send \(sent.attempt)"
      case .requestRetried(let retried):
        "retry after attempt \(retried.attempt) for \(retried.reason) in \(retried.delay)"
      default: nil
      }
    }
    #expect(
      summary == [
        "send 1", "retry after attempt 1 for status 429 in 0.0",
        "send 2", "retry after attempt 2 for status 429 in 0.0", "send 3",
      ])
  }

  @Test func cancellingDuringABackOffWaitEndsItAtOnceAndNothingIsSentAfterIt() async throws {
    let transport = StubTransport { _ in .status(503) }
    var configuration = probeConfiguration
    configuration.retryPolicy = RetryPolicy(baseDelay: 10, jitter: 0)
    let clock = TestClock()
    configuration.clock = clock
    let connection = probeConnection(transport, configuration: configuration)
    let task = Task { try await connection.execute(ProbeRequest()) }
    // The call is in its back-off: one attempt sent, a 10 s wait on the clock.
    try #require(await eventually { clock.pendingWakeUps == [10] })
    #expect(transport.requests.count == 1)
    task.cancel()
    // The clock has not moved: only the cancellation can end the wait.
    await #expect(throws: ServerConnectionError.cancelled) { try await task.value }
    #expect(clock.pendingWakeUps.isEmpty)
    clock.advance(by: 20)
    #expect(transport.requests.count == 1)
  }

  @Test func aRetryAfterIsWaitedFor() async throws {
    let calls = Locked(0)
    let transport = StubTransport { _ in
      calls.next() == 0 ? .status(503, headers: ["Retry-After": "1"]) : .json([:])
    }
    let clock = TestClock()
    var configuration = probeConfiguration
    configuration.clock = clock
    let connection = probeConnection(transport, configuration: configuration)
    let call = Task { try await connection.execute(ProbeRequest()) }
    try #require(await eventually { clock.pendingWakeUps == [1] })
    #expect(transport.requests.count == 1)
    clock.advance(by: 1)
    _ = try await call.value
    #expect(transport.requests.count == 2)
  }

  @Test func aDecisionMayAskForARetryItself() async throws {
    struct RetryOnce: ResponseDecision {
      func decide<Request: RequestDescribing>(
        on response: TransportResponse, for request: Request, context: RequestContext
      ) async throws -> ResponseDecisionOutcome<Request.Response> {
        context.retries == 0 ? .retry(after: 0) : .proceed(response)
      }
    }
    let transport = StubTransport { _ in .json([:]) }
    let request = ProbeRequest(decisions: [RetryOnce(), StatusValidation(), ResponseDecoding()])
    _ = try await probeConnection(transport).execute(request)
    #expect(transport.requests.count == 2)
  }
}

/// A transport whose first attempt fails with `kind` and whose later ones answer `{}`.
private func failingOnce(with kind: TransportFailure.Kind) -> StubTransport {
  let calls = Locked(0)
  return StubTransport { _ in
    calls.next() == 0 ? .failure(TransportFailure(kind: kind, detail: "\(kind)")) : .json([:])
  }
}

/// Asks to send the request again on a 409, `times` times in all.
private struct ResendingDecision: ResponseDecision {
  enum Kind { case retry, restart }
  let kind: Kind
  var times = Int.max

  func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    guard response.statusCode == 409, context.attempt <= times else { return .proceed(response) }
    switch kind {
    case .retry: return .retry(after: 0)
    case .restart: return .restart(decisions: nil)
    }
  }
}
