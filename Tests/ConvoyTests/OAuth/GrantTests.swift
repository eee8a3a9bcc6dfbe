import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

/// Logging in to a standard server with the configured client: discovery, the password and
/// client credentials grants, renewal by repeating the grant, revocation on logout.
@Suite(.timeLimit(.minutes(3))) struct GrantTests {
  @Test func passwordLoginIsOneLineWithTheConfiguredClient() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    #expect(try await connection.execute(MeAtTheAPI()).value == ["me": "ada"])
    #expect(
      server.log == [
        "GET /.well-known/oauth-authorization-server", "POST /token", "GET /me",
      ])
    let grant = StubRequest(try #require(server.transport.requests.dropFirst().first))
    #expect(grant.formBody["grant_type"] == "password")
    #expect(grant.formBody["scope"] == "read write")
    #expect(grant.formBody["client_secret"] == nil)
  }

  @Test func theServersMetadataIsFetchedOncePerConnection() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    #expect(server.log.filter { $0.contains("well-known") }.count == 1)
  }

  @Test func openIDConnectDiscoveryIsTheFallback() async throws {
    let server = AuthorizationServerStub()
    server.publishesStandardMetadata = false
    server.publishesOpenIDMetadata = true
    let connection = server.connection()
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    #expect(
      server.log.prefix(3) == [
        "GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration",
        "POST /token",
      ])
  }

  @Test func metadataOfAnotherIssuerIsRefused() async throws {
    let server = AuthorizationServerStub()
    server.metadataIssuer = "https://evil.example"
    await #expect {
      try await server.connection().login(with: .password(username: "ada", password: "lovelace"))
    } throws: { error in
      guard case .discoveryFailed = error as? AuthenticationSetupError else { return false }
      return ErrorMessageProvider.category(of: error) == .appMisconfigured
    }
    #expect(!server.log.contains("POST /token"))
  }

  @Test func explicitEndpointsNeedNoDiscovery() async throws {
    let server = AuthorizationServerStub()
    var client = AuthorizationServerStub.client
    client.endpoints = OAuthEndpoints(token: "https://id.example.com/token")
    try await server.connection(client: client).login(
      with: .password(username: "ada", password: "lovelace"))
    #expect(server.log == ["POST /token"])
  }

  @Test func aWrongPasswordIsWordedAsWrongCredentials() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    await #expect {
      try await connection.login(with: .password(username: "ada", password: "babbage"))
    } throws: { error in
      (error as? AuthorizationError)?.code == .invalidGrant
        && ErrorMessageProvider.category(of: error) == .wrongCredentials
    }
    #expect(connection.session == nil)
  }

  @Test func withoutAClientALoginSaysTheAppIsMisconfigured() async throws {
    let server = AuthorizationServerStub()
    await #expect {
      try await server.connection(client: nil).login(
        with: .password(username: "ada", password: "lovelace"))
    } throws: { error in
      (error as? AuthenticationSetupError) == .noClient
        && ErrorMessageProvider.category(of: error) == .appMisconfigured
    }
    #expect(server.log.isEmpty)
  }

  @Test func theLoginJobRunsWithAToken() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    let session = try await withCheckedThrowingContinuation { continuation in
      connection.run(
        Login.password(username: "ada", password: "lovelace"), completionQueue: .global()
      ) { continuation.resume(with: $0) }
    }
    #expect(session.accessToken.refreshToken != nil)
    #expect(connection.session == nil)  // running the job only yields the session
  }

  @Test func clientCredentialsRenewByRepeatingTheGrant() async throws {
    let server = AuthorizationServerStub()
    server.accessLifetime = 0.2
    let connection = server.connection()
    let session = try await connection.login(with: .clientCredentials)
    #expect(session.isClientSession)
    #expect(session.accessToken.refreshToken == nil)
    server.clock.advance(by: 0.25)
    #expect(try await connection.execute(MeAtTheAPI()).value == ["me": "ada"])
    let grants = server.transport.requests.map { StubRequest($0).formBody["grant_type"] }
    #expect(grants.filter { $0 == "client_credentials" }.count == 2)
  }

  @Test func logoutRevokesTheRefreshAndAccessTokensThenForgetsTheSession() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    let session = try await connection.login(with: .password(username: "ada", password: "lovelace"))
    let outcome = try await connection.logout()
    guard case .revoked = outcome else {
      Issue.record("expected revoked, got \(outcome)")
      return
    }
    #expect(server.revoked == [session.accessToken.refreshToken, session.accessToken.value])
    #expect(connection.session == nil)
  }

  @Test func aFailedRevocationStillForgetsTheSessionAndTellsObservers() async throws {
    let server = AuthorizationServerStub()
    server.revocationAnswer = .json(["error": "server_error"], status: 503)
    let notices = Locked<[String]>([])
    let connection = server.connection(observers: [
      AnyEventObserver { event in
        if case .notice(let notice) = event.kind { notices.withLock { $0.append(notice.text) } }
      }
    ])
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    let outcome = try await connection.logout()
    guard case .failed = outcome else {
      Issue.record("expected failed, got \(outcome)")
      return
    }
    #expect(connection.session == nil)
    #expect(notices.current.contains { $0.contains("revocation failed") })
  }

  @Test func logoutWithoutARevocationEndpointOnlyForgets() async throws {
    let server = AuthorizationServerStub()
    var client = AuthorizationServerStub.client
    client.endpoints = OAuthEndpoints(token: "https://id.example.com/token")
    let connection = server.connection(client: client)
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    guard case .notAttempted = try await connection.logout() else {
      Issue.record("expected notAttempted")
      return
    }
    #expect(connection.session == nil)
    #expect(server.log == ["POST /token"])
  }

  @Test func credentialsStayOutOfDescriptions() {
    let client = AuthorizationServerStub.client
    let request = AccessTokenRequest(
      grant: .password(username: "ada", password: "lovelace"), client: client,
      endpoint: "token")
    let revocation = TokenRevocationRequest(
      token: "refresh-secret", kind: .refreshToken, client: client, endpoint: "revoke")
    for value in [
      client, request, revocation, PasswordLogin(username: "a", password: "lovelace"),
      Login.password(username: "a", password: "lovelace"),
    ] as [Any] {
      var dumped = ""
      dump(value, to: &dumped)
      for text in [String(describing: value), dumped] {
        #expect(!text.contains("s3cret"))
        #expect(!text.contains("lovelace"))
        #expect(!text.contains("refresh-secret"))
      }
    }
  }
}
