import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct Thing: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "thing" }
}

/// W3C Trace Context: what is accepted and refused, and what a call inside a trace sends.
@Suite struct TraceContextTests {
  private static let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

  @Test func aValidTraceparentIsReadIntoItsParts() throws {
    let context = try TraceContext(traceparent: Self.parent, tracestate: "congo=t61rcWkgMzE")
    #expect(context.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
    #expect(context.parentID == "00f067aa0ba902b7")
    #expect(context.flags == 1)
    #expect(context.isSampled)
    #expect(context.traceState == "congo=t61rcWkgMzE")
    #expect(context.traceparent == Self.parent)
  }

  @Test func surroundingBlanksAreIgnored() throws {
    #expect(try TraceContext(traceparent: "  \(Self.parent)\t").traceparent == Self.parent)
  }

  @Test(arguments: [
    ("", TraceContextError.malformedTraceparent),
    ("garbage", .malformedTraceparent),
    ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", .malformedTraceparent),
    ("00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", .malformedTraceparent),
    ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", .malformedTraceparent),
    ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-zz", .malformedTraceparent),
    ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", .unsupportedVersion),
    ("0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", .unsupportedVersion),
    ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", .invalidTraceID),
    ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", .invalidTraceID),
    ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", .invalidParentID),
    ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bX-01", .invalidParentID),
  ])
  func aMalformedTraceparentIsRefusedWithItsReason(_ value: String, _ error: TraceContextError) {
    #expect(throws: error) { try TraceContext(traceparent: value) }
  }

  @Test func aLaterVersionMayAppendFieldsWhichAreIgnored() throws {
    let future = "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-holds"
    let context = try TraceContext(traceparent: future)
    #expect(context.traceparent == Self.parent)
  }

  @Test(arguments: [
    "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", "a=1 , b=2", "tenant@vendor=x", "a=1,,b=2",
  ])
  func validTracestateListsAreKept(_ state: String) throws {
    #expect(try TraceContext(traceparent: Self.parent, tracestate: state).traceState == state)
  }

  @Test(arguments: [
    "novalue", "UPPER=1", "a=b=c", "a=", "1@2=x", "a=\u{7F}",
    (0...32).map { "k\($0)=v" }.joined(separator: ","),
  ])
  func anInvalidTracestateIsRefused(_ state: String) {
    #expect(throws: TraceContextError.invalidTraceState) {
      try TraceContext(traceparent: Self.parent, tracestate: state)
    }
  }

  @Test func incomingHeadersKeepTheTraceparentAndDropABadTracestate() throws {
    let context = try #require(
      TraceContext(headers: ["traceparent": Self.parent, "tracestate": "BAD"]))
    #expect(context.traceparent == Self.parent)
    #expect(context.traceState == nil)
    #expect(TraceContext(headers: ["traceparent": "nonsense"]) == nil)
    #expect(TraceContext(headers: [:]) == nil)
  }

  @Test func theErrorsAreWordedAndCategorized() {
    let error = TraceContextError.invalidTraceID
    #expect(ErrorMessageProvider.category(of: error) == .invalidRequest)
    #expect(!error.description.isEmpty)
  }

  @Test func aNewTraceHasValidRandomIds() throws {
    let trace = TraceContext.newTrace(sampled: false)
    #expect(!trace.isSampled)
    #expect(try TraceContext(traceparent: trace.traceparent) == trace)
    #expect(TraceContext.newTrace().traceID != trace.traceID)
  }

  // MARK: - Calls

  private func sentTraceHeaders(
    adapters: [any RequestAdapter] = ServerConnection.standardAdapters,
    during body: (ServerConnection) async throws -> Void
  ) async throws -> [(traceparent: String?, tracestate: String?)] {
    let answers = StubAnswer.sequence([.status(503), .status(200)])
    let transport = StubTransport { _ in answers }
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/")!)
    configuration.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: 0, jitter: 0)
    let connection = ServerConnection(
      configuration: configuration, transport: transport, adapters: adapters)
    try await body(connection)
    return transport.requests.map {
      (
        $0.urlRequest.value(forHTTPHeaderField: "traceparent"),
        $0.urlRequest.value(forHTTPHeaderField: "tracestate")
      )
    }
  }

  @Test func eachAttemptInsideATraceSendsANewSpanUnderTheCallersTrace() async throws {
    let trace = try TraceContext(traceparent: Self.parent, tracestate: "congo=t61rcWkgMzE")
    let sent = try await sentTraceHeaders { connection in
      _ = try await TraceContext.$current.withValue(trace) {
        try await connection.execute(Thing())
      }
    }
    #expect(sent.count == 2)
    let spans = try sent.map { try TraceContext(traceparent: #require($0.traceparent)) }
    #expect(spans.allSatisfy { $0.traceID == trace.traceID && $0.flags == trace.flags })
    #expect(spans.allSatisfy { $0.parentID != trace.parentID })
    #expect(spans[0].parentID != spans[1].parentID)
    #expect(sent.allSatisfy { $0.tracestate == "congo=t61rcWkgMzE" })
  }

  @Test func aCallOutsideATraceSendsNoTraceHeaders() async throws {
    let sent = try await sentTraceHeaders { connection in
      _ = try await connection.execute(Thing())
    }
    #expect(sent.count == 2)
    #expect(sent.allSatisfy { $0.traceparent == nil && $0.tracestate == nil })
  }

  @Test func theAdapterSendsItsTraceWhereNoTaskLocalIsSet() async throws {
    let trace = TraceContext.newTrace()
    let sent = try await sentTraceHeaders(
      adapters: ServerConnection.standardAdapters + [TraceContextAdapter { trace }]
    ) { connection in
      _ = try await connection.execute(Thing())
    }
    let spans = try sent.map { try TraceContext(traceparent: #require($0.traceparent)) }
    #expect(spans.count == 2)
    #expect(spans.allSatisfy { $0.traceID == trace.traceID })
    #expect(spans[0].parentID != spans[1].parentID)
  }

  @Test func aTraceparentAnAdapterSetIsKept() async throws {
    let own = "00-11111111111111111111111111111111-2222222222222222-00"
    let sent = try await sentTraceHeaders(
      adapters: ServerConnection.standardAdapters + [SetTraceparent(value: own)]
    ) { connection in
      _ = try await TraceContext.$current.withValue(TraceContext.newTrace()) {
        try await connection.execute(Thing())
      }
    }
    #expect(sent.allSatisfy { $0.traceparent == own })
  }
}

private struct SetTraceparent: RequestAdapter {
  let value: String
  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    var request = request
    request.setValue(value, forHTTPHeaderField: "traceparent")
    return request
  }
}
