import Convoy
import ConvoyTesting
import ConvoyTracing
import Foundation
import InMemoryTracing
import Testing
import Tracing

@Suite struct TracingTests {
  @Test func aCallIsOneClientSpanWithTheHTTPClientAttributes() async throws {
    let tracer = InMemoryTracer()
    let (connection, transport) = stubbedConnection(.json(["n": 1]))
    _ = try await connection.execute(Places(), tracer: tracer)
    let span = try #require(tracer.finishedSpans.first)
    #expect(tracer.finishedSpans.count == 1)
    #expect(span.operationName == "GET")
    #expect(span.kind == .client)
    #expect(span.attributes.get("http.request.method") == "GET")
    #expect(span.attributes.get("http.response.status_code") == 200)
    #expect(span.attributes.get("server.address") == "api.example.com")
    #expect(span.attributes.get("server.port") == 443)
    #expect(span.attributes.get("http.request.resend_count") == nil)
    #expect(span.status == nil)
    let url = try #require(span.attributes.get("url.full")?.toSpanAttribute())
    #expect("\(url)".contains("page=2"))
    #expect(!"\(url)".contains("tok-s3cret"))
    #expect(span.events.map(\.name) == ["http.attempt"])
    // The tracer's own propagation put the span's context on the request.
    let sent = try #require(transport.requests.first)
    #expect(sent.urlRequest.value(forHTTPHeaderField: InMemoryTracer.spanIDKey) == span.spanID)
    #expect(sent.urlRequest.value(forHTTPHeaderField: InMemoryTracer.traceIDKey) == span.traceID)
  }

  @Test func theSpanIsAChildOfTheCallersSpan() async throws {
    let tracer = InMemoryTracer()
    let (connection, _) = stubbedConnection(.json(["n": 1]))
    try await tracer.withSpan("checkout") { _ in
      _ = try await connection.execute(Places(), tracer: tracer)
    }
    let spans = tracer.finishedSpans
    let call = try #require(spans.first { $0.operationName == "GET" })
    let parent = try #require(spans.first { $0.operationName == "checkout" })
    #expect(call.parentSpanID == parent.spanID)
    #expect(call.traceID == parent.traceID)
  }

  @Test func eachAttemptIsAnEventAndTheResendCountIsSet() async throws {
    let tracer = InMemoryTracer()
    let answers = StubAnswer.sequence([.status(503), .json(["n": 1])])
    let (connection, _) = stubbedConnection(retries: 1, answers)
    _ = try await connection.execute(Places(), tracer: tracer)
    let span = try #require(tracer.finishedSpans.first)
    #expect(span.events.map(\.name) == ["http.attempt", "http.attempt"])
    #expect(span.events.last?.attributes.get("http.request.resend_count") == 1)
    #expect(span.attributes.get("http.request.resend_count") == 1)
  }

  @Test func aFailedCallSetsTheErrorTypeAndStatusWithoutSecrets() async throws {
    let tracer = InMemoryTracer()
    let (connection, _) = stubbedConnection(retries: 0, .status(404))
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(Places(), tracer: tracer)
    }
    let span = try #require(tracer.finishedSpans.first)
    #expect(span.attributes.get("error.type") == "404")
    #expect(span.attributes.get("http.response.status_code") == 404)
    #expect(span.status?.code == .error)
    #expect(span.status?.message?.contains("tok-s3cret") == false)
    #expect(span.errors.isEmpty)
  }

  @Test func aFailureWithoutAnAnswerIsTypedByItsCategory() async throws {
    let tracer = InMemoryTracer()
    let (connection, _) = stubbedConnection(
      retries: 0, .failure(TransportFailure(kind: .cannotConnectToHost, detail: "refused")))
    _ = try? await connection.execute(Places(), tracer: tracer)
    let span = try #require(tracer.finishedSpans.first)
    #expect(span.attributes.get("error.type") == "serverUnreachable")
    #expect(span.attributes.get("http.response.status_code") == nil)
  }

  @Test func aW3CTracersPropagationSendsTheSpansTraceparent() async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, transport) = stubbedConnection(.json(["n": 1]))
    _ = try await connection.execute(Places(), tracer: tracer)
    let span = try #require(tracer.recorder.finishedSpans.first)
    let sent = try #require(transport.requests.first?.urlRequest)
    let context = try TraceContext(
      traceparent: #require(sent.value(forHTTPHeaderField: "traceparent")))
    #expect(context.traceID == span.traceID)
    #expect(context.parentID == span.spanID)
  }
}
