import Convoy
import ConvoyTesting
import Foundation
import Testing

/// Refresh-token rotation, including a renewal whose answer never arrives.
@Suite(.timeLimit(.minutes(3))) struct RotationTests {
  /// A connection logged in with a token that is due at once, so the next call renews.
  private static func loggedIn(
    _ server: AuthorizationServerStub, store: InMemorySessionStore = InMemorySessionStore()
  ) async throws -> ServerConnection {
    server.accessLifetime = 0.1
    let connection = server.connection(store: store)
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    server.accessLifetime = 3_600
    server.clock.advance(by: 0.15)
    return connection
  }

  @Test func theRotatedRefreshTokenIsStoredAndTheOldOneIsDead() async throws {
    let server = AuthorizationServerStub()
    let store = InMemorySessionStore()
    let connection = try await Self.loggedIn(server, store: store)
    let before = try #require(connection.session?.accessToken.refreshToken)
    #expect(try await connection.execute(MeAtTheAPI()).value == ["me": "ada"])
    let after = try #require(connection.session?.accessToken.refreshToken)
    #expect(after != before)
    #expect(try store.loadSession()?.accessToken.refreshToken == after)
  }

  @Test func aLostAnswerIsRecoveredWhereTheServerStillAcceptsTheOldToken() async throws {
    let server = AuthorizationServerStub()
    server.acceptsRotatedRefreshToken = true
    let connection = try await Self.loggedIn(server)
    server.losesNextRefreshAnswer = true
    #expect(try await connection.execute(MeAtTheAPI()).value == ["me": "ada"])
    #expect(server.refreshCalls == 2)
    #expect(connection.session != nil)
  }

  @Test func aLostAnswerEndsAsSessionExpiredWhereTheServerRefusesTheOldToken() async throws {
    let server = AuthorizationServerStub()
    let connection = try await Self.loggedIn(server)
    server.losesNextRefreshAnswer = true
    await #expect {
      try await connection.execute(MeAtTheAPI())
    } throws: { error in
      if case .sessionExpired = error as? ServerConnectionError { return true }
      return false
    }
    #expect(server.refreshCalls == 2)
    #expect(connection.session == nil)
    // Sticky: the next call fails the same way without reaching the server.
    let sent = server.transport.requests.count
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(MeAtTheAPI())
    }
    #expect(server.transport.requests.count == sent)
  }
}
