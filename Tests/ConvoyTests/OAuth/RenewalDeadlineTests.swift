import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A call's deadline bounds everything the call does: its wait for a token renewal, the
/// adapters and decisions apps add, and retry waits; the renewal itself ends by one deadline of
/// its own and keeps going for the calls still waiting. All on the test clock.
@Suite(.timeLimit(.minutes(3))) struct RenewalDeadlineTests {
  struct MeWithin: RequestDescribing {
    typealias Response = JSONResponse<[String: String]>
    var timeout: TimeInterval?
    var method: HTTPMethod { .get }
    var path: String { "me" }
    var authenticationRequirement: AuthenticationRequirement { .accessToken }
  }

  @Test func aCallStopsWaitingForARenewalAtItsDeadlineAndTheRenewalGoesOn() async throws {
    let server = TokenServer()
    // The token endpoint answers after 50 s: within the renewal's own 60 s.
    server.refreshBehaviour = .slow(50)
    let connection = try server.connection(token: "token-1", expiresIn: -10)
    let hurried = Task { try await connection.execute(MeWithin(timeout: 2)) }
    let patient = Task { try await connection.execute(MeWithin(timeout: 120)) }
    try #require(await eventually { server.refreshCalls == 1 })
    // The renewal's delayed answer (50 s) and the two waiters' deadlines (2 s, 120 s).
    try #require(await server.clock.waitForWakeUps(3))
    server.clock.advance(by: 2)
    let error = await #expect(throws: ServerConnectionError.self) { try await hurried.value }
    let context = try #require(timedOutContext(of: error))
    // The call that timed out is named, not the token request it was waiting for.
    #expect(context.url?.hasSuffix("/me") == true)
    server.clock.advance(by: 48)
    #expect(try await patient.value.value == ["me": "alice"])
    #expect(server.refreshCalls == 1)
  }

  @Test func aRenewalThatTimesOutIsNotSentAgainWithinTheSameRenewal() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .slow(1_000)
    let connection = try server.connection(token: "token-1", expiresIn: -10)
    let call = Task { try await connection.execute(MeWithin(timeout: 500)) }
    try #require(await eventually { server.refreshCalls == 1 })
    // The grant's answer (1,000 s), its exchange's deadline (60 s) and the call's wait (500 s).
    try #require(await server.clock.waitForWakeUp(in: 60))
    server.clock.advance(by: 60)
    // The renewal's 60 s are spent: it fails its waiters rather than asking for another 60 s.
    let error = await #expect(throws: ServerConnectionError.self) { try await call.value }
    let context = try #require(timedOutContext(of: error))
    #expect(context.url?.hasSuffix("/oauth/token") == true)
    #expect(server.refreshCalls == 1)
    // The session stays: the next call that needs a token renews anew.
    #expect(connection.session != nil)
  }

  @Test func anAdapterThatNeverReturnsEndsAtTheDeadline() async throws {
    let clock = TestClock()
    let transport = StubTransport { _ in .json(["me": "alice"]) }
    let stalling = AnyRequestAdapter { request, _ in
      try await Task.sleep(for: .seconds(3_600))
      return request
    }
    let connection = ServerConnection(
      configuration: twoSeconds(on: clock), transport: transport, adapters: [stalling])
    let call = Task { try await connection.execute(Plain()) }
    try #require(await clock.waitForWakeUp(in: 2))
    clock.advance(by: 2)
    await #expect {
      try await call.value
    } throws: { error in
      timedOutContext(of: error as? ServerConnectionError) != nil
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func aDecisionThatNeverReturnsEndsAtTheDeadline() async throws {
    let clock = TestClock()
    let transport = StubTransport { _ in .json(["me": "alice"]) }
    let connection = ServerConnection(
      configuration: twoSeconds(on: clock), transport: transport,
      decisions: [Stalling()] + ServerConnection.standardDecisions)
    let call = Task { try await connection.execute(Plain()) }
    try #require(await clock.waitForWakeUp(in: 2))
    #expect(transport.requests.count == 1)
    clock.advance(by: 2)
    await #expect {
      try await call.value
    } throws: { error in
      timedOutContext(of: error as? ServerConnectionError) != nil
    }
  }

  @Test func aRetryWaitThatWouldPassTheDeadlineIsNotBegun() async throws {
    let clock = TestClock()
    let transport = StubTransport { _ in .json(["me": "alice"]) }
    let connection = ServerConnection(
      configuration: twoSeconds(on: clock), transport: transport,
      decisions: [RetryLater()] + ServerConnection.standardDecisions)
    // No clock advance: the call ends without waiting the 10 s it could never finish within.
    await #expect {
      try await connection.execute(Plain())
    } throws: { error in
      timedOutContext(of: error as? ServerConnectionError) != nil
    }
    #expect(transport.requests.count == 1)
  }

  /// The case as an app meets it: a token endpoint that does not answer, on each transport, in
  /// real time.
  @Test(arguments: MockServerTransportTests.Kind.allCases)
  func aSignedCallEndsAtItsDeadlineWhenTheTokenEndpointDoesNotAnswer(
    _ kind: MockServerTransportTests.Kind
  ) async throws {
    let server = try await MockServer.started()
    server.route(
      .post, "/oauth/token",
      answer: MockAnswer(body: .bytes(Data("{}".utf8)), headDelay: .seconds(30)))
    server.route(.get, "/me", answer: .json(["me": "alice"]))
    var authentication = AuthenticationConfiguration()
    authentication.client = TokenServer.client
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .local, baseURL: server.baseURL, authentication: authentication),
      transport: try kind.transport())
    try connection.login(session: TokenServer.session(token: "token-1", expiresIn: -10))
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(MeWithin(timeout: 2))
    }
    let context = try #require(timedOutContext(of: error))
    #expect(context.url?.hasSuffix("/me") == true)
    await server.shutdown()
  }

  /// A configuration whose calls have 2 s on `clock`.
  private func twoSeconds(on clock: TestClock) -> ServerConfiguration {
    ServerConfiguration(
      environment: .local, baseURL: URL(string: "https://api.example.com/")!, timeout: 2,
      clock: clock)
  }

  /// The context of a `timedOut` failure; `nil` for any other outcome.
  private func timedOutContext(of error: ServerConnectionError?) -> ErrorContext? {
    guard case .timedOut(let context) = error else { return nil }
    return context
  }

  struct Plain: RequestDescribing {
    typealias Response = JSONResponse<[String: String]>
    var method: HTTPMethod { .get }
    var path: String { "me" }
  }

  /// An app's decision that waits on something that never comes.
  struct Stalling: ResponseDecision {
    func decide<Request: RequestDescribing>(
      on response: TransportResponse, for request: Request, context: RequestContext
    ) async throws -> ResponseDecisionOutcome<Request.Response> {
      try await Task.sleep(for: .seconds(3_600))
      return .proceed(response)
    }
  }

  /// An app's decision that asks for every answer again in 10 s.
  struct RetryLater: ResponseDecision {
    func decide<Request: RequestDescribing>(
      on response: TransportResponse, for request: Request, context: RequestContext
    ) async throws -> ResponseDecisionOutcome<Request.Response> {
      .retry(after: 10)
    }
  }
}
