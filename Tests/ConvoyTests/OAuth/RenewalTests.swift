import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(3))) struct RenewalTests {
  @Test func a401RenewsTheTokenAndReplaysOnce() async throws {
    let server = TokenServer()
    let connection = try server.connection(token: "token-0")
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
    #expect(server.refreshCalls == 1)
    let signed = server.transport.requests.compactMap {
      $0.urlRequest.value(forHTTPHeaderField: "Authorization")
    }
    #expect(signed == ["Bearer token-0", "Bearer token-2"])
    #expect(connection.session?.accessToken.value == "token-2")
    #expect(connection.session?.accessToken.refreshToken == "refresh-r1")
  }

  @Test func theRefreshGrantIsFormEncodedWithTheClientCredentials() async throws {
    let server = TokenServer()
    let connection = try server.connection(token: "token-0")
    _ = try await connection.execute(Me())
    let body = try #require(server.refreshBodies.first)
    #expect(
      body
        == "client_id=app&client_secret=client-s3cret&grant_type=refresh_token&refresh_token=refresh-r1"
    )
    let refresh = try #require(
      server.transport.requests.first { $0.urlRequest.url?.path == "/oauth/token" })
    #expect(
      refresh.urlRequest.value(forHTTPHeaderField: "Content-Type")
        == "application/x-www-form-urlencoded")
    #expect(refresh.urlRequest.value(forHTTPHeaderField: "Authorization") == nil)
  }

  @Test func aTokenAboutToExpireIsRenewedBeforeSending() async throws {
    let server = TokenServer()
    let connection = try server.connection(token: "token-1", expiresIn: 10)
    _ = try await connection.execute(Me())
    let paths = server.transport.requests.map { $0.urlRequest.url?.path ?? "" }
    #expect(paths == ["/oauth/token", "/me"])
    #expect(
      server.transport.requests.last?.urlRequest.value(forHTTPHeaderField: "Authorization")
        == "Bearer token-2")
  }

  @Test func aReplayThatFailsAgainIsNotRenewedAgain() async throws {
    let server = TokenServer()
    server.alwaysRejectTokens = true
    let connection = try server.connection()
    await #expect {
      try await connection.execute(Me())
    } throws: { error in
      (error as? ServerConnectionError)?.statusCode == 401
    }
    #expect(server.refreshCalls == 1)
    #expect(server.transport.requests.filter { $0.urlRequest.url?.path == "/me" }.count == 2)
  }

  @Test func fiftyConcurrentRequestsShareOneRenewal() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .slow(0.2)
    let connection = try server.connection(token: "token-0")
    let calls = Task {
      await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<50 {
          group.addTask { (try? await connection.execute(Me()).value) == ["me": "alice"] }
        }
        return await group.reduce(into: [Bool]()) { $0.append($1) }
      }
    }
    // The calls in flight (six, the network limit) were refused and the one renewal is under
    // way, its answer waiting for the clock; the calls still queued will find the new token.
    try #require(await eventually { server.refreshCalls == 1 })
    try #require(await server.clock.waitForWakeUp(in: 0.2))
    server.clock.advance(by: 0.2)
    let results = await calls.value
    #expect(results.count == 50)
    #expect(results.allSatisfy { $0 })
    #expect(server.refreshCalls == 1)
  }

  @Test func aRefusedRenewalEndsTheSessionForEveryWaiter() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .refuse(status: 400)
    let connection = try server.connection(token: "token-0")
    let changes = connection.sessionChanges()
    let errors = await withTaskGroup(of: (any Error)?.self) { group in
      for _ in 0..<10 {
        group.addTask {
          do {
            _ = try await connection.execute(Me())
            return nil
          } catch { return error }
        }
      }
      return await group.reduce(into: [(any Error)?]()) { $0.append($1) }
    }
    for error in errors {
      guard case .sessionExpired = error as? ServerConnectionError else {
        Issue.record("expected sessionExpired, got \(String(describing: error))")
        continue
      }
      #expect(
        ErrorMessageProvider.standard.message(for: error!)?.text
          == "Your session has expired. Please log in again.")
    }
    #expect(connection.session == nil)
    #expect(server.refreshCalls == 1)
    var iterator = changes.makeAsyncIterator()
    #expect(await iterator.next() != nil)  // the session at subscription
    #expect(await iterator.next() == .some(nil))  // gone
  }

  @Test func aRefusedRenewalIsStickyUntilTheNextLogin() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .refuse(status: 401)
    let connection = try server.connection(token: "token-0")
    _ = try? await connection.execute(Me())
    let sentBefore = server.transport.requests.count
    await #expect {
      try await connection.execute(Me())
    } throws: { error in
      if case .sessionExpired = error as? ServerConnectionError { return true }
      return false
    }
    #expect(server.transport.requests.count == sentBefore)

    server.refreshBehaviour = .issue
    try connection.login(session: TokenServer.session(token: server.validToken))
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
  }

  @Test func aPassingRenewalFailureKeepsTheSession() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .fail(
      TransportFailure(kind: .notConnectedToInternet, detail: "offline"))
    let connection = try server.connection(token: "token-0")
    await #expect {
      // The renewal retries the failure after its back-off, on the connection's test clock.
      try await drivingClock(server.clock) { try await connection.execute(Me()) }
    } throws: { error in
      guard case .transportFailed(let failure, _) = error as? ServerConnectionError else {
        return false
      }
      return failure.kind == .notConnectedToInternet
    }
    #expect(connection.session?.accessToken.value == "token-0")

    server.refreshBehaviour = .issue
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
  }

  @Test func aCancelledWaiterDoesNotCancelTheRenewalOthersWaitFor() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .slow(0.5)
    let connection = try server.connection(token: "token-0")
    let patient = Task { try await connection.execute(Me()).value }
    let impatient = Task { try await connection.execute(Me()).value }
    // Both were refused and the renewal is under way, its answer waiting for the clock.
    let mePaths = { server.transport.requests.filter { $0.urlRequest.url?.path == "/me" }.count }
    try #require(await eventually { mePaths() == 2 && server.refreshCalls == 1 })
    try #require(await server.clock.waitForWakeUp(in: 0.5))
    impatient.cancel()
    await #expect {
      try await impatient.value
    } throws: { error in
      error.isCancellation
    }
    server.clock.advance(by: 0.5)
    #expect(try await patient.value == ["me": "alice"])
    #expect(server.refreshCalls == 1)
    #expect(connection.session?.accessToken.value == "token-2")
  }

  @Test func a401ForAnOlderTokenReplaysWithTheCurrentOneWithoutRenewing() async throws {
    struct SlowMe: RequestDescribing {
      typealias Response = JSONResponse<[String: String]>
      var method: HTTPMethod { .get }
      var path: String { "me/slow" }
      var authenticationRequirement: AuthenticationRequirement { .accessToken }
    }
    let server = TokenServer()
    let connection = try server.connection(token: "token-0")
    // The slow call leaves signed with token-0; its 401 arrives after the fast call renewed.
    let slow = Task { try await connection.execute(SlowMe()).value }
    let slowPaths = {
      server.transport.requests.filter { $0.urlRequest.url?.path == "/me/slow" }.count
    }
    try #require(await eventually { slowPaths() == 1 })
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
    // The slow call's 401 arrives now, after the renewal; its replay is slow too.
    try #require(await server.clock.waitForWakeUp(in: 0.5))
    server.clock.advance(by: 0.5)
    try #require(await server.clock.waitForWakeUp(in: 0.5))
    server.clock.advance(by: 0.5)
    #expect(try await slow.value == ["me": "alice"])
    #expect(server.refreshCalls == 1)
    let slowAttempts = server.transport.requests.filter { $0.urlRequest.url?.path == "/me/slow" }
    #expect(
      slowAttempts.map { $0.urlRequest.value(forHTTPHeaderField: "Authorization") }
        == ["Bearer token-0", "Bearer token-2"])
  }

  @Test func tooManyRenewalsAreReportedNotLooped() async throws {
    let server = TokenServer()
    server.alwaysRejectTokens = true
    let connection = try server.connection(
      authentication: AuthenticationConfiguration(maximumRefreshesPerWindow: 2, refreshWindow: 60))
    for _ in 0..<2 { _ = try? await connection.execute(Me()) }
    await #expect {
      try await connection.execute(Me())
    } throws: { error in
      guard case .refreshLimitExceeded = error as? ServerConnectionError else { return false }
      return ErrorMessageProvider.category(of: error) == .serverFailure
    }
    #expect(server.refreshCalls == 2)
  }

  @Test func otherInvalidTokenSignalsCanBeConfigured() async throws {
    let server = TokenServer()
    let forbidden = AuthenticationConfiguration.InvalidTokenSignal(
      status: 403, errorCode: "token_invalid", codeKey: "error")
    let configuration = AuthenticationConfiguration(invalidTokenSignals: [.unauthorized, forbidden])
    #expect(
      configuration.signalsInvalidToken(status: 403, body: Data(#"{"error":"token_invalid"}"#.utf8))
    )
    #expect(
      !configuration.signalsInvalidToken(status: 403, body: Data(#"{"error":"not_yours"}"#.utf8)))
    #expect(!configuration.signalsInvalidToken(status: 500, body: Data()))
    _ = server
  }
}
