import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A renewal the token endpoint refuses because of the client is the app's configuration, not
/// an expired session: "log in again" would only lead to the same refusal.
@Suite struct RefusedClientRenewalTests {
  private static let notSetUp =
    "This app isn't set up correctly to log in to this server. Please update the app or "
    + "contact support."

  @Test(arguments: ["invalid_client", "unauthorized_client"])
  func aRenewalRefusingTheClientIsWordedAsTheAppsSetUpNotAsAnExpiredSession(code: String)
    async throws
  {
    let server = TokenServer()
    server.refreshBehaviour = .refuse(status: 401, code: code)
    let connection = try server.connection(token: "token-0")
    let error = await #expect(throws: AuthorizationError.self) {
      try await connection.execute(Me())
    }
    #expect(error?.code.rawValue == code)
    #expect(error.map(ErrorMessageProvider.category(of:)) == .appMisconfigured)
    #expect(error.flatMap(ErrorMessageProvider.standard.message(for:))?.text == Self.notSetUp)
    #expect(server.refreshCalls == 1)
  }

  @Test func laterRequestsKeepSayingSoWithoutAskingTheServerAgain() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .refuse(status: 400, code: "invalid_client")
    let connection = try server.connection(token: "token-0")
    _ = try? await connection.execute(Me())
    let sentBefore = server.transport.requests.count
    let error = await #expect(throws: (any Error).self) { try await connection.execute(Me()) }
    #expect(error.flatMap(ErrorMessageProvider.standard.message(for:))?.text == Self.notSetUp)
    #expect(server.transport.requests.count == sentBefore)
    #expect(connection.session == nil)

    server.refreshBehaviour = .issue
    try connection.login(session: TokenServer.session(token: server.validToken))
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
  }

  @Test func aRefusedRefreshTokenStillEndsTheSessionAsExpired() async throws {
    let server = TokenServer()
    server.refreshBehaviour = .refuse(status: 400, code: "invalid_grant")
    let connection = try server.connection(token: "token-0")
    await #expect(
      throws: ServerConnectionError.sessionExpired(
        ErrorContext(method: .get, url: URL(string: "https://api.example.com/me")))
    ) {
      try await connection.execute(Me())
    }
  }
}
