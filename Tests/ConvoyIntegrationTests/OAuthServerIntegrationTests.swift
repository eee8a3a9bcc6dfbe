import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Convoy against a real standard OAuth2 server: django-oauth-toolkit on a loopback port.
///
/// Serialized: tests count the token requests in the server's log.
@Suite(.serialized, .needs(.djangoOAuthToolkit, .httpbin)) struct OAuthServerIntegrationTests {
  private func tokenRequests(since baseline: Int) async throws -> Int {
    let server = await OAuthToolkit.shared()
    return try await server.log().dropFirst(baseline).filter { $0 == "POST /o/token/" }.count
  }

  /// Expires the access token at the server, so that the next call is answered 401.
  private func expireAccessToken(of connection: ServerConnection) async throws {
    let server = await OAuthToolkit.shared()
    let token = try #require(connection.session).accessToken.value
    var request = URLRequest(url: server.issuer.appendingPathComponent("test/expire"))
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data("token=\(token)".utf8)
    _ = try await URLSession.shared.data(for: request)
  }

  @Test func passwordLoginIsOneLineThenAProtectedCallWorks() async throws {
    let server = await OAuthToolkit.shared()
    let connection = server.connection(client: server.passwordClient)
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    let me = try await connection.execute(ProtectedMe()).value
    #expect(me.user == "ada")
    #expect(me.places == ["Harbour", "Bridge"])
  }

  @Test func loginRefusalsAreWordedByWhatWentWrong() async throws {
    let server = await OAuthToolkit.shared()
    await #expect {
      try await server.connection(client: server.passwordClient)
        .login(with: .password(username: "ada", password: "babbage"))
    } throws: { ErrorMessageProvider.category(of: $0) == .wrongCredentials }
    var wrongSecret = server.passwordClient
    wrongSecret.secret = "not-the-secret"
    await #expect {
      try await server.connection(client: wrongSecret).login(
        with: .password(username: "ada", password: "lovelace"))
    } throws: { ErrorMessageProvider.category(of: $0) == .appMisconfigured }
  }

  @Test func clientCredentialsLogInAndRenewByRepeatingTheGrant() async throws {
    let server = await OAuthToolkit.shared()
    let connection = server.connection(client: server.serviceClient)
    let session = try await connection.login(with: .clientCredentials)
    #expect(session.isClientSession)
    #expect(try await connection.execute(ProtectedMe()).value.user == "")
    try await expireAccessToken(of: connection)
    let baseline = try await server.log().count
    #expect(try await connection.execute(ProtectedMe()).value.user == "")
    #expect(try await tokenRequests(since: baseline) == 1)
    #expect(connection.session?.accessToken.value != session.accessToken.value)
  }

  @Test func fiftyCallsOnARejectedTokenCauseOneRotatingRenewal() async throws {
    let server = await OAuthToolkit.shared()
    let store = InMemorySessionStore()
    let connection = server.connection(client: server.passwordClient, store: store)
    let first = try await connection.login(with: .password(username: "ada", password: "lovelace"))
    try await expireAccessToken(of: connection)
    let baseline = try await server.log().count
    let results = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<50 {
        group.addTask { (try? await connection.execute(ProtectedMe()).value.user) == "ada" }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results.count == 50 && results.allSatisfy { $0 })
    #expect(try await tokenRequests(since: baseline) == 1)
    let rotated = try #require(connection.session?.accessToken.refreshToken)
    #expect(rotated != first.accessToken.refreshToken)
    #expect(try store.loadSession()?.accessToken.refreshToken == rotated)
  }

  @Test func logoutRevokesSoTheServerRefusesTheOldRefreshToken() async throws {
    let server = await OAuthToolkit.shared()
    let connection = server.connection(client: server.passwordClient)
    let session = try await connection.login(with: .password(username: "ada", password: "lovelace"))
    guard case .revoked = try await connection.logout() else {
      Issue.record("the server did not confirm the revocation")
      return
    }
    #expect(connection.session == nil)
    await #expect {
      _ = try await connection.execute(
        AccessTokenRequest(
          grant: .refreshToken(try #require(session.accessToken.refreshToken)),
          client: server.passwordClient, endpoint: "o/token/"))
    } throws: { ($0 as? AuthorizationError)?.code == .invalidGrant }
  }

  /// The events of the calls made to the token endpoint.
  private static func tokenEndpointEvents(_ events: [ConvoyEvent]) -> [ConvoyEvent] {
    let renewals = Set(
      events.compactMap { event -> UInt64? in
        guard case .requestCreated(let created) = event.kind,
          created.url?.hasSuffix("/o/token/") == true
        else { return nil }
        return created.call.id
      })
    return events.filter { $0.call.map { renewals.contains($0.id) } ?? false }
  }

  @Test func renewalsAndTheirRefusalReachTheObservers() async throws {
    let server = await OAuthToolkit.shared()
    let events = Locked<[ConvoyEvent]>([])
    let connection = server.connection(
      client: server.passwordClient,
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    try await expireAccessToken(of: connection)
    events.withLock { $0.removeAll() }
    _ = try await connection.execute(ProtectedMe())
    let renewal = Self.tokenEndpointEvents(events.current).map(\.name)
    #expect(renewal.first == .requestCreated)
    #expect(renewal.contains(.responseReceived))
    #expect(renewal.last == .requestFinished)

    // Revoking the refresh token too makes the next renewal a refusal.
    let session = try #require(connection.session)
    _ = try await connection.execute(
      TokenRevocationRequest(
        token: try #require(session.accessToken.refreshToken), kind: .refreshToken,
        client: server.passwordClient, endpoint: "o/revoke_token/"))
    events.withLock { $0.removeAll() }
    await #expect {
      try await connection.execute(ProtectedMe())
    } throws: { error in
      if case .sessionExpired = error as? ServerConnectionError { return true }
      return false
    }
    let refusals = Self.tokenEndpointEvents(events.current).compactMap { event in
      if case .requestFailed(let failure) = event.kind { failure } else { nil }
    }
    #expect(refusals.first?.status == 400)
    #expect(!events.current.contains { "\($0)".contains(session.accessToken.value) })
  }

  @Test func noTokenEverGoesToAnotherPortOrHost() async throws {
    let server = await OAuthToolkit.shared()
    struct Elsewhere: RequestDescribing {
      typealias Response = DataResponse
      var target: String
      var method: HTTPMethod { .get }
      var path: String { target }
      var authenticationRequirement: AuthenticationRequirement { .accessToken }
    }
    let connection = server.connection(client: server.passwordClient)
    try await connection.login(with: .password(username: "ada", password: "lovelace"))
    for target in [HTTPBin.shared.url("/headers"), HTTPBin.other.url("/headers")] {
      await #expect {
        try await connection.execute(Elsewhere(target: target.absoluteString))
      } throws: { error in
        if case .insecureDestination = error as? ServerConnectionError { return true }
        return false
      }
    }
  }

  @Test func authorizationCodeWithPKCEThroughTheLoopbackListener() async throws {
    let server = await OAuthToolkit.shared()
    let connection = server.connection(client: server.browserClient)
    let browser = ScriptedBrowser()
    let listener = try LoopbackRedirectListener(timeout: 600) { url in
      // The person: opens the page, logs in, consents; the redirect reaches the listener.
      Task {
        let login = try await browser.open(url)
        let consent = try await browser.submit(login, ["username": "ada", "password": "lovelace"])
        _ = try await browser.submit(consent, ["allow": "Authorize"])
      }
    }
    try await connection.login(with: .authorizationCode(through: listener))
    #expect(try await connection.execute(ProtectedMe()).value.user == "ada")
  }

  @Test func deviceGrantApprovedByAPersonOnTheServersPages() async throws {
    let server = await OAuthToolkit.shared()
    let connection = server.connection(client: server.deviceClient)
    let browser = ScriptedBrowser()
    let shown = Locked<DeviceAuthorization?>(nil)
    try await connection.login(
      with: Login.deviceCode(timeout: 300) { authorization in
        shown.withLock { $0 = authorization }
        Task {
          let login = try await browser.open(authorization.verificationURI)
          let code = try await browser.submit(login, ["username": "ada", "password": "lovelace"])
          let confirm = try await browser.submit(code, ["user_code": authorization.userCode])
          _ = try await browser.submit(confirm, ["action": "accept"])
        }
      })
    #expect(shown.current?.userCode.isEmpty == false)
    #expect(try await connection.execute(ProtectedMe()).value.user == "ada")
  }

  @Test func aDeniedDeviceCodeEndsTheLogin() async throws {
    let server = await OAuthToolkit.shared()
    let connection = server.connection(client: server.deviceClient)
    let browser = ScriptedBrowser()
    await #expect {
      try await connection.login(
        with: Login.deviceCode(timeout: 300) { authorization in
          Task {
            let login = try await browser.open(authorization.verificationURI)
            let code = try await browser.submit(login, ["username": "ada", "password": "lovelace"])
            let confirm = try await browser.submit(code, ["user_code": authorization.userCode])
            _ = try await browser.submit(confirm, ["action": "deny"])
          }
        })
    } throws: { ($0 as? AuthorizationError)?.code == .accessDenied }
    #expect(connection.session == nil)
  }
}
