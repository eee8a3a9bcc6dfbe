import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

/// The device authorization grant (RFC 8628) against the stub server.
@Suite(.timeLimit(.minutes(3))) struct DeviceLoginTests {
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
    try await drivingClock(server.clock) {
      try await connection.login(with: Self.job(shown: shown))
    }
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
    let connection = server.connection()
    try await drivingClock(server.clock) {
      try await connection.login(with: Self.job(slowDown: 0.3))
    }
    let dates = server.pollDates
    #expect(dates.count == 3)
    #expect(dates[1].timeIntervalSince(dates[0]) >= 0.3)
    #expect(dates[2].timeIntervalSince(dates[1]) >= 0.3)
  }

  @Test func aDeniedCodeEndsTheLogin() async throws {
    let server = Self.server(polls: ["authorization_pending", "access_denied"])
    let connection = server.connection()
    await #expect {
      try await drivingClock(server.clock) { try await connection.login(with: Self.job()) }
    } throws: { error in
      (error as? AuthorizationError)?.code == .accessDenied
    }
    #expect(connection.session == nil)
    #expect(server.pollDates.count == 2)
  }

  @Test func anExpiredCodeEndsTheLoginWithinItsLifetime() async throws {
    let server = Self.server(polls: [])
    server.deviceExpiresIn = 0.4
    let connection = server.connection()
    await #expect {
      try await drivingClock(server.clock) { try await connection.login(with: Self.job()) }
    } throws: { error in
      (error as? AuthorizationError)?.code == .expiredToken
        && ErrorMessageProvider.category(of: error) == .loginIncomplete
    }
    // Polling ends with the codes' lifetime (0.4 s on the clock, polls 0.05 s apart), far below
    // the server's default lifetime of 30 minutes.
    let dates = server.pollDates
    #expect(dates.count >= 2)
    #expect((dates.last?.timeIntervalSince(dates[0]) ?? 0) < 0.4)
  }

  @Test func cancellingTheJobTokenStopsPolling() async throws {
    let server = Self.server(polls: [])
    let connection = server.connection()
    let outcome = Outcome<Result<Session, any Error>>()
    let token = connection.run(Self.job(), completionQueue: testQueue) { outcome.record($0) }
    // The job polls once, then sleeps until the next poll.
    #expect(await eventually { server.clock.pendingWakeUps.contains { $0 < 10 } })
    server.clock.advance(by: 0.05)
    #expect(await eventually { server.pollDates.count == 1 })
    #expect(await eventually { server.clock.pendingWakeUps.contains { $0 < 10 } })
    token.cancel()
    #expect(await outcome.first()?.failureValue?.isCancellation == true)
    // The job is over and its sleep gone: moving the clock far on wakes no poll.
    #expect(!server.clock.pendingWakeUps.contains { $0 < 10 })
    server.clock.advance(by: 60)
    #expect(server.pollDates.count == 1)
  }
}

@Suite(.timeLimit(.minutes(3))) struct DeviceLoginTimeoutTests {
  @Test func aLoginNotApprovedWithinItsTimeoutIsIncompleteNotASlowServer() async throws {
    let server = AuthorizationServerStub()
    server.devicePolls = []
    server.deviceInterval = 0.05
    var job = DeviceLogin(timeout: 0.5) { _ in }
    job.minimumInterval = 0.05
    // Through `Login`, which must pass the device flow's timeout and its error on to the job.
    let login = Login(flow: .deviceCode(job))
    let connection = server.connection()
    // The polls and the job's 0.5 s timeout all wait on the server's test clock, driven here.
    let error = await #expect(throws: AuthorizationError.self) {
      try await drivingClock(server.clock) { try await connection.login(with: login) }
    }
    #expect(error?.code == .expiredToken)
    #expect(error.map(ErrorMessageProvider.category(of:)) == .loginIncomplete)
    #expect(
      error.flatMap(ErrorMessageProvider.standard.message(for:))?.text
        == "The login wasn't completed in time. Please start it again.")
    #expect(error?.serverDescription == "not approved within the login's timeout of 0.5 s")
    #expect(connection.session == nil)
  }

  @Test func aPollStillInFlightAtTheTimeoutIsCancelledAndTheLoginIsIncomplete() async throws {
    let server = AuthorizationServerStub()
    server.devicePolls = ["hang"]
    server.deviceInterval = 0.05
    var job = DeviceLogin(timeout: 0.5) { _ in }
    job.minimumInterval = 0.05
    let connection = server.connection()
    let login = Task { [job] in try await connection.login(with: job) }
    // The first poll goes out after its interval and gets no answer for an hour of the clock.
    #expect(await server.clock.waitForWakeUp(in: 0.05))
    server.clock.advance(by: 0.05)
    #expect(await server.clock.waitForWakeUp(in: 3_600))
    #expect(server.pollDates.count == 1)
    // Only the login's own 0.5 s timeout can end the job now.
    server.clock.advance(by: 0.45)
    let error = await #expect(throws: AuthorizationError.self) { try await login.value }
    #expect(error?.code == .expiredToken)
    #expect(error.map(ErrorMessageProvider.category(of:)) == .loginIncomplete)
    #expect(error?.serverDescription == "not approved within the login's timeout of 0.5 s")
    // The poll's transfer was stopped: its hour-long answer no longer waits on the clock.
    #expect(await eventually { !server.clock.pendingWakeUps.contains { $0 > 1_000 } })
    #expect(connection.session == nil)
  }

  @Test func aJobDeadlineWithNoRequestBehindItSaysSoForDevelopers() {
    #expect(
      ServerConnectionError.timedOut(ErrorContext()).description
        == "timed out: the deadline passed")
  }
}
