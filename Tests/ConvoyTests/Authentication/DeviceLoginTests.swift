import Convoy
import ConvoyTesting
import Foundation
import Testing

/// The device authorization grant (RFC 8628) against the stub server.
@Suite struct DeviceLoginTests {
  private static func job(
    shown: Locked<[DeviceAuthorization]> = Locked([]), slowDown: TimeInterval = 0.3
  ) -> DeviceLogin {
    var job = DeviceLogin { authorization in shown.withLock { $0.append(authorization) } }
    job.minimumInterval = 0.05
    job.slowDownIncrement = slowDown
    return job
  }

  private static func server(polls: [String]) -> AuthorizationServerStub {
    let server = AuthorizationServerStub()
    server.devicePolls = polls
    server.deviceInterval = 0.05
    return server
  }

  @Test func theCodeIsShownOnceThenPendingPollsEndInASession() async throws {
    let server = Self.server(polls: ["authorization_pending", "authorization_pending", "approve"])
    let connection = server.connection()
    let shown = Locked<[DeviceAuthorization]>([])
    try await connection.login(with: Self.job(shown: shown))
    #expect(try await connection.execute(MeAtTheAPI()).value == ["me": "ada"])
    #expect(shown.current.count == 1)
    #expect(shown.current.first?.userCode == "WDJB-MJHT")
    #expect(
      shown.current.first?.verificationURI.absoluteString == "https://id.example.com/activate")
    #expect(shown.current.first?.verificationURIComplete?.query == "user_code=WDJB-MJHT")
    #expect(server.pollDates.count == 3)
  }

  @Test func slowDownWidensTheIntervalForEveryLaterPoll() async throws {
    let server = Self.server(polls: ["slow_down", "authorization_pending", "approve"])
    try await server.connection().login(with: Self.job(slowDown: 0.3))
    let dates = server.pollDates
    #expect(dates.count == 3)
    #expect(dates[1].timeIntervalSince(dates[0]) >= 0.3)
    #expect(dates[2].timeIntervalSince(dates[1]) >= 0.3)
  }

  @Test func aDeniedCodeEndsTheLogin() async throws {
    let server = Self.server(polls: ["authorization_pending", "access_denied"])
    let connection = server.connection()
    await #expect {
      try await connection.login(with: Self.job())
    } throws: { error in
      (error as? AuthorizationError)?.code == .accessDenied
    }
    #expect(connection.session == nil)
    #expect(server.pollDates.count == 2)
  }

  @Test func anExpiredCodeEndsTheLoginWithinItsLifetime() async throws {
    let server = Self.server(polls: [])
    server.deviceExpiresIn = 0.4
    let started = Date()
    await #expect {
      try await server.connection().login(with: Self.job())
    } throws: { error in
      (error as? AuthorizationError)?.code == .expiredToken
        && ErrorMessageProvider.category(of: error) == .loginIncomplete
    }
    // Far below the server's default lifetime (30 minutes): polling ends with the codes.
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func cancellingTheJobTokenStopsPolling() async throws {
    let server = Self.server(polls: [])
    let connection = server.connection()
    let finished = Locked<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let token = connection.run(Self.job(), completionQueue: .global()) { result in
      if case .failure(let error) = result { finished.withLock { $0 = error } }
      done.signal()
    }
    try await Task.sleep(nanoseconds: 200_000_000)
    token.cancel()
    let ended = await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: done.wait(timeout: .now() + 2))
      }
    }
    #expect(ended == .success)
    #expect(finished.current?.isCancellation == true)
    let polls = server.pollDates.count
    try await Task.sleep(nanoseconds: 200_000_000)
    #expect(server.pollDates.count == polls)
  }
}

@Suite struct DeviceLoginTimeoutTests {
  @Test func aLoginNotApprovedWithinItsTimeoutIsIncompleteNotASlowServer() async throws {
    let server = AuthorizationServerStub()
    server.devicePolls = []
    server.deviceInterval = 0.05
    var job = DeviceLogin(timeout: 0.5) { _ in }
    job.minimumInterval = 0.05
    let connection = server.connection()
    let error = await #expect(throws: AuthorizationError.self) {
      try await connection.login(with: job)
    }
    #expect(error?.code == .expiredToken)
    #expect(error.map(ErrorMessageProvider.category(of:)) == .loginIncomplete)
    #expect(
      error.flatMap(ErrorMessageProvider.standard.message(for:))?.text
        == "The login wasn't completed in time. Please start it again.")
    #expect(error?.serverDescription == "not approved within the login's timeout of 0.5 s")
    #expect(connection.session == nil)
  }

  @Test func aJobDeadlineWithNoRequestBehindItSaysSoForDevelopers() {
    #expect(
      ServerConnectionError.timedOut(ErrorContext()).description
        == "timed out: the deadline passed")
  }
}
