import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The hook a tracing library implements: a span per call, its headers on every attempt, one end.
@Suite struct CallTracingTests {
  @Test func everyAttemptSendsTheSpansHeadersOverTheAdaptersAndTheSpanEndsOnce() async throws {
    let tracing = RecordingTracing()
    let answers = StubAnswer.sequence([.status(503), .json(["n": 1])])
    let transport = StubTransport { _ in answers }
    let connection = ServerConnection(
      configuration: probeConfiguration, transport: transport,
      adapters: [AnyRequestAdapter { request, _ in request.withValue("adapter", for: "X-Span") }],
      tracing: tracing)
    _ = try await connection.execute(ProbeRequest(path: "things"))
    let span = try #require(tracing.spans.first)
    #expect(tracing.spans.count == 1)
    #expect(span.call.method == .get)
    #expect(span.call.url?.absoluteString == "https://api.example.com/things")
    #expect(span.call.parent == nil)
    #expect(span.attempts == [1, 2])
    let sent = transport.requests.map { $0.urlRequest.value(forHTTPHeaderField: "X-Span") }
    #expect(sent == ["span 1, attempt 1", "span 1, attempt 2"])
    #expect(span.ends == ["finished 200 after 2 attempts"])
  }

  @Test func aFailedAndACancelledCallEachEndTheirSpanOnceAsFailed() async throws {
    let tracing = RecordingTracing()
    let transport = StubTransport { request in
      request.urlRequest.url?.path == "/slow" ? .delayed(600, .status(200)) : .status(404)
    }
    let connection = ServerConnection(
      configuration: probeConfiguration, transport: transport, tracing: tracing)
    _ = try? await connection.execute(ProbeRequest(path: "missing"))
    let slow = Task { try await connection.execute(ProbeRequest(path: "slow")) }
    try #require(await eventually { transport.requests.count == 2 })
    slow.cancel()
    _ = try? await slow.value
    try #require(await eventually { tracing.spans.count == 2 && tracing.spans[1].ends.count == 1 })
    #expect(tracing.spans[0].ends == ["failed notFound"])
    #expect(tracing.spans[1].ends == ["failed cancelled"])
  }

  @Test func aStreamsSpanEndsWhenItsBodyEnds() async throws {
    let tracing = RecordingTracing()
    let transport = StubTransport { _ in .json(["n": 12345]) }
    let connection = ServerConnection(
      configuration: probeConfiguration, transport: transport, tracing: tracing)
    let stream = try await connection.stream(ProbeRequest())
    for try await _ in stream.body {}
    try #require(await eventually { tracing.spans.first?.ends.isEmpty == false })
    #expect(tracing.spans.first?.ends == ["finished 200 after 1 attempts"])
  }

  @Test func oneRenewalForManyWaitingCallsIsTheChildOfOneOfThem() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .slow(0.2)
    let tracing = RecordingTracing()
    let connection = try server.connection(token: "token-0", tracing: tracing)
    let calls = Task {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<3 { group.addTask { _ = try? await connection.execute(Me()) } }
      }
    }
    try #require(await eventually { server.refreshCalls == 1 })
    try #require(await server.clock.waitForWakeUp(in: 0.2))
    server.clock.advance(by: 0.2)
    await calls.value
    let renewals = tracing.spans.filter { $0.call.method == .post }
    let callers = tracing.spans.filter { $0.call.method == .get }
    try #require(renewals.count == 1)
    #expect(callers.count == 3)
    let parent = try #require(renewals[0].call.parent as? RecordedSpan)
    #expect(callers.contains { $0 === parent })
    #expect(renewals[0].call.url?.path == "/oauth/token")
  }
}

/// Records each span it begins.
private final class RecordingTracing: CallTracing {
  private let recorded = Locked<[RecordedSpan]>([])

  var spans: [RecordedSpan] { recorded.withLock { $0 } }

  func startSpan(for call: TracedCall) -> any CallSpan {
    recorded.withLock { spans in
      let span = RecordedSpan(call: call, number: spans.count + 1)
      spans.append(span)
      return span
    }
  }
}

/// Records what Convoy tells it; sends `X-Span: span N, attempt M`.
private final class RecordedSpan: CallSpan {
  let call: TracedCall
  let number: Int
  private let recordedAttempts = Locked<[Int]>([])
  private let recordedEnds = Locked<[String]>([])

  init(call: TracedCall, number: Int) {
    self.call = call
    self.number = number
  }

  var attempts: [Int] { recordedAttempts.withLock { $0 } }
  var ends: [String] { recordedEnds.withLock { $0 } }

  func headers(forAttempt attempt: Int) -> HTTPHeaders {
    recordedAttempts.withLock { $0.append(attempt) }
    return ["X-Span": "span \(number), attempt \(attempt)"]
  }

  func finished(status: Int, metrics: CallMetrics) {
    recordedEnds.withLock { $0.append("finished \(status) after \(metrics.attempts) attempts") }
  }

  func failed(_ error: any Error, metrics: CallMetrics) {
    let category = ErrorMessageProvider.category(of: error)
    let what = error.isCancellation ? "cancelled" : category.rawValue
    recordedEnds.withLock { $0.append("failed \(what)") }
  }
}

extension URLRequest {
  fileprivate func withValue(_ value: String, for field: String) -> URLRequest {
    var request = self
    request.setValue(value, forHTTPHeaderField: field)
    return request
  }
}
