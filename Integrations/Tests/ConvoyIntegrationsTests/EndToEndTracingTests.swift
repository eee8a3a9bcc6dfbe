import Convoy
import ConvoyTracing
import Foundation
import Testing
import Tracing

/// A real server no one here wrote, httpbin, echoes the `traceparent` the tracer's propagation
/// put on the call: its trace id and parent id are those of the call's span.
@Suite struct EndToEndTracingTests {
  private struct Headers: RequestDescribing {
    typealias Response = JSONResponse<[String: [String: String]]>
    var method: HTTPMethod { .get }
    var path: String { "headers" }
  }

  @Test func httpbinSeesTheTraceparentOfTheCallsSpan() async throws {
    let baseURL = try #require(
      HTTPBinProcess.baseURL, "httpbin is not installed: run scripts/test once, which installs it")
    let tracer = W3CInMemoryTracer()
    let connection = ServerConnection(
      configuration: ServerConfiguration(environment: .staging, baseURL: baseURL))
    let answer = try await connection.execute(Headers(), tracer: tracer)
    let span = try #require(tracer.recorder.finishedSpans.first)
    let echoed = try #require(answer.value["headers"]?["Traceparent"])
    let seen = try TraceContext(traceparent: echoed)
    #expect(seen.traceID == span.traceID)
    #expect(seen.parentID == span.spanID)
    #expect(span.attributes.get("http.response.status_code") == 200)
    #expect(span.attributes.get("network.protocol.version") == "1.1")
  }

  @Test func httpbinSeesTheTraceparentOfACallOnATracedConnection() async throws {
    let baseURL = try #require(
      HTTPBinProcess.baseURL, "httpbin is not installed: run scripts/test once, which installs it")
    let tracer = W3CInMemoryTracer()
    let connection = ServerConnection(
      configuration: ServerConfiguration(environment: .staging, baseURL: baseURL),
      tracing: DistributedTracing(tracer: tracer))
    let answer = try await connection.execute(Headers())
    let span = try #require(tracer.recorder.finishedSpans.first)
    let seen = try TraceContext(traceparent: #require(answer.value["headers"]?["Traceparent"]))
    #expect(seen.traceID == span.traceID)
    #expect(seen.parentID == span.spanID)
    #expect(span.attributes.get("http.response.status_code") == 200)
    #expect(span.attributes.get("network.protocol.version") == "1.1")
  }
}
