import Convoy
import ConvoyTesting
import ConvoyTracing
import Foundation
import InMemoryTracing
import Testing
import Tracing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A connection given a tracer once: every call it makes — a plain call, a job's steps, a
/// stream, a download, a token renewal — is a client span whose `traceparent` the server sees.
@Suite struct ConnectionTracingTests {
  @Test func aCallIsAClientSpanChildOfTheCallersSpanWithTheHTTPClientAttributes() async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, transport) = try tracedConnection(tracer) { _ in .json(["n": 1]) }
    try await tracer.withSpan("checkout") { _ in
      _ = try await connection.execute(Places())
    }
    let call = try #require(tracer.recorder.finishedSpans.first { $0.operationName == "GET" })
    let checkout = try #require(
      tracer.recorder.finishedSpans.first { $0.operationName == "checkout" })
    #expect(call.kind == .client)
    #expect(call.parentSpanID == checkout.spanID)
    #expect(call.traceID == checkout.traceID)
    #expect(call.attributes.get("http.request.method") == "GET")
    #expect(call.attributes.get("http.response.status_code") == 200)
    #expect(call.attributes.get("server.address") == "api.example.com")
    let url = try #require(call.attributes.get("url.full")?.toSpanAttribute())
    #expect("\(url)".contains("page=2"))
    #expect(!"\(url)".contains("tok-s3cret"))
    #expect(call.events.map(\.name) == ["http.attempt"])
    try expectTraceparent(of: #require(transport.requests.first), names: call)
  }

  @Test func eachStepOfAJobIsASpanOfItsOwn() async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, transport) = try tracedConnection(tracer) { _ in .json(["n": 1]) }
    _ = try await connection.run(
      connection.operation(for: Places()).then { _ in connection.operation(for: Places()) })
    let spans = tracer.recorder.finishedSpans
    #expect(spans.count == 2)
    #expect(spans.allSatisfy { $0.kind == .client && $0.operationName == "GET" })
    let sent = transport.requests
    try #require(sent.count == 2)
    for (request, span) in zip(sent, spans) {
      try expectTraceparent(of: request, names: span)
    }
  }

  @Test func aStreamsSpanEndsWithItsBody() async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, transport) = try tracedConnection(tracer) { _ in
      .response(status: 200, headers: [:], body: Data("line 1\nline 2\n".utf8))
    }
    let stream = try await connection.stream(Places())
    var lines: [String] = []
    for try await line in stream.body.lines { lines.append(line) }
    #expect(lines == ["line 1", "line 2"])
    try #require(await eventually { !tracer.recorder.finishedSpans.isEmpty })
    let span = try #require(tracer.recorder.finishedSpans.first)
    #expect(span.attributes.get("http.response.status_code") == 200)
    #expect(span.attributes.get("http.response.body.size") == 14)
    try expectTraceparent(of: #require(transport.requests.first), names: span)
  }

  @Test func aDownloadIsAClientSpan() async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, transport) = try tracedConnection(tracer) { _ in
      .response(status: 200, headers: [:], body: Data("photo".utf8))
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("ConnectionTracingTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try await connection.download(Places(), to: folder.appendingPathComponent("photo"))
    let span = try #require(tracer.recorder.finishedSpans.first)
    #expect(tracer.recorder.finishedSpans.count == 1)
    #expect(span.kind == .client)
    #expect(span.attributes.get("http.response.status_code") == 200)
    try expectTraceparent(of: #require(transport.requests.first), names: span)
  }

  @Test func aFailedCallEndsItsSpanWithTheErrorType() async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, _) = try tracedConnection(tracer) { _ in .status(404) }
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(Places())
    }
    let span = try #require(tracer.recorder.finishedSpans.first)
    #expect(span.attributes.get("error.type") == "404")
    #expect(span.status?.code == .error)
  }

  @Test(arguments: [RenewalCause.expiredToken, .refusedToken])
  func aTokenRenewalIsAChildSpanOfTheCallThatStartedIt(_ cause: RenewalCause) async throws {
    let tracer = W3CInMemoryTracer()
    let (connection, transport) = try tracedConnection(tracer, authenticated: cause) { request in
      if request.urlRequest.url?.path == "/oauth/token" {
        return .json(["access_token": "fresh", "token_type": "bearer", "expires_in": 3_600])
      }
      let signed = request.urlRequest.value(forHTTPHeaderField: "Authorization")
      return signed == "Bearer fresh" ? .json(["me": "alice"]) : .status(401)
    }
    try await tracer.withSpan("handler") { _ in
      _ = try await connection.execute(Me())
    }
    let spans = tracer.recorder.finishedSpans
    let call = try #require(spans.first { $0.operationName == "GET" })
    let renewal = try #require(spans.first { $0.operationName == "POST" })
    #expect(renewal.kind == .client)
    #expect(renewal.parentSpanID == call.spanID)
    #expect(renewal.traceID == call.traceID)
    #expect(renewal.attributes.get("http.response.status_code") == 200)
    let tokenRequest = try #require(
      transport.requests.first { $0.urlRequest.url?.path == "/oauth/token" })
    try expectTraceparent(of: tokenRequest, names: renewal)
    let me = try #require(transport.requests.last { $0.urlRequest.url?.path == "/me" })
    try expectTraceparent(of: me, names: call)
  }

  enum RenewalCause: Sendable, CustomTestStringConvertible {
    /// The token expired before the call: it is renewed before the call is signed.
    case expiredToken
    /// The server refused a token that looked current: the answer's 401 renews it.
    case refusedToken

    var testDescription: String {
      switch self {
      case .expiredToken: "renewed before signing"
      case .refusedToken: "renewed after a 401"
      }
    }
  }

  private struct Me: RequestDescribing {
    typealias Response = JSONResponse<[String: String]>
    var method: HTTPMethod { .get }
    var path: String { "me" }
    var authenticationRequirement: AuthenticationRequirement { .accessToken }
  }

  /// A connection to a stubbed server that traces its calls with `tracer`; with a session to
  /// renew when `authenticated` says why.
  private func tracedConnection(
    _ tracer: W3CInMemoryTracer, authenticated: RenewalCause? = nil,
    _ respond: @escaping @Sendable (TransportRequest) -> StubAnswer
  ) throws -> (ServerConnection, StubTransport) {
    let transport = StubTransport(respond: respond)
    let client = OAuthClient(
      id: "app", secret: "client-s3cret", authenticationMethod: .clientSecretPost,
      endpoints: OAuthEndpoints(token: "oauth/token"))
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com/")!,
        retryPolicy: RetryPolicy(maximumRetries: 0),
        authentication: AuthenticationConfiguration(client: client)),
      transport: transport, tracing: DistributedTracing(tracer: tracer))
    if let authenticated {
      let expiry = authenticated == .expiredToken ? -60.0 : 3_600
      try connection.login(
        session: Session(
          accessToken: AccessToken(
            value: "stale", expiresAt: Date().addingTimeInterval(expiry),
            refreshToken: "refresh-r1")))
    }
    return (connection, transport)
  }

  /// Checks that `request` carried a `traceparent` naming `span`: its trace, and itself as the
  /// server's parent.
  private func expectTraceparent(
    of request: TransportRequest, names span: FinishedInMemorySpan,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let traceparent = try #require(
      request.urlRequest.value(forHTTPHeaderField: "traceparent"), sourceLocation: sourceLocation)
    let context = try TraceContext(traceparent: traceparent)
    #expect(context.traceID == span.traceID, sourceLocation: sourceLocation)
    #expect(context.parentID == span.spanID, sourceLocation: sourceLocation)
  }
}
