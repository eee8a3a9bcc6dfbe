import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct SimulatedPlacesAPITests {
  @Test func theHappyPathLogsInAndReadsPlaces() async throws {
    let api = SimulatedPlacesAPI()
    let connection = simulatedConnection(api)
    try await simulatedLogIn(connection)
    #expect(
      try await connection.execute(SimulatedPlacesRequest()).value == SimulatedPlacesAPI.places)
    #expect(
      try await connection.execute(SimulatedPlaceRequest(id: 4)).value.name == "Botanical Garden")
    #expect(
      try await connection.execute(SimulatedPlacesRequest(city: "berlin")).value.map(\.id) == [4])
    #expect(
      api.requests.map(\.endpoint) == [
        "users/retrieve-client", "oauth/token password", "v2/places", "v2/places/4", "v2/places",
      ])
    let grant = api.requests[1].formBody
    #expect(grant["client_id"] == SimulatedPlacesAPI.client.id)
    #expect(grant["username"] == "demo@convoy.example")
    let session = try #require(connection.session)
    #expect(session.clientSecret == SimulatedPlacesAPI.client)
    #expect(session.accessToken.refreshToken != nil)
    let lifetime = try #require(session.accessToken.expiresAt).timeIntervalSinceNow
    #expect(lifetime > 240 && lifetime <= 300 + 5)
  }

  @Test func anUnknownPlaceIs404WithAReason() async throws {
    let connection = simulatedConnection(SimulatedPlacesAPI())
    try await simulatedLogIn(connection)
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(SimulatedPlaceRequest(id: 99))
    }
    #expect(
      error
        == .descriptiveServerError("There is no place with id 99.", try #require(error?.context)))
  }

  @Test func wrongCredentialsAreRefusedWithAReason() async throws {
    let connection = simulatedConnection(SimulatedPlacesAPI())
    let error = await #expect(throws: ServerConnectionError.self) {
      try await simulatedLogIn(connection, password: "guess")
    }
    #expect(error?.statusCode == 401)
    #expect(
      error == .descriptiveServerError("Wrong email or password.", try #require(error?.context)))

    let authentication = connection.configuration.authentication
    let grantError = await #expect(throws: AuthorizationError.self) {
      _ = try await connection.execute(
        AccessTokenRequest(
          grant: .password(username: "demo@convoy.example", password: "guess"),
          client: try #require(authentication.client).presenting(SimulatedPlacesAPI.client),
          endpoint: "oauth/token"))
    }
    #expect(grantError?.statusCode == 400)
    #expect(grantError?.code == .invalidGrant)
    #expect(grantError?.serverDescription == "Wrong email or password.")
  }

  @Test func clientCredentialsMayComeAsHTTPBasic() async throws {
    let api = SimulatedPlacesAPI()
    let connection = simulatedConnection(
      api,
      authentication: AuthenticationConfiguration(
        client: OAuthClient(
          id: SimulatedPlacesAPI.client.id, authenticationMethod: .clientSecretBasic,
          endpoints: OAuthEndpoints(token: "oauth/token"))))
    try await simulatedLogIn(connection)
    #expect(api.requests[1].formBody["client_id"] == nil)
    #expect(try await connection.execute(SimulatedPlacesRequest()).value.count == 8)
  }

  @Test func aTokenIssuedByOneSimulatorIsAcceptedByAnother() async throws {
    // The stand-in for `democli login` and `democli places` running as two processes.
    let session = try await issuedSession()
    let other = SimulatedPlacesAPI()
    let connection = simulatedConnection(other)
    try connection.login(session: session)
    #expect(try await connection.execute(SimulatedPlacesRequest()).value.count == 8)
    #expect(other.requests.map(\.endpoint) == ["v2/places"])
  }

  @Test func missingAlteredAndExpiredTokensAreRefused() async throws {
    let session = try await issuedSession()
    let clock = TestClock(now: Date())
    let later = SimulatedPlacesAPI(clock: clock)
    clock.advance(by: 301)
    let value = session.accessToken.value
    // A signature already ending in "0" must still be altered: change its last digit for sure.
    let altered = value.dropLast() + (value.last == "0" ? "1" : "0")
    let refused = [nil, "Bearer nonsense", "Bearer " + altered, "Bearer " + value]
    for (index, authorization) in refused.enumerated() {
      var headers: [String: String] = [:]
      headers["Authorization"] = authorization
      let api = index == refused.count - 1 ? later : SimulatedPlacesAPI()
      let answer = api.routes.answer(
        for: stubRequest(.get, "https://x.example/v2/places", headers: headers))
      guard case .response(401, _, let body) = answer else {
        Issue.record("expected 401 for \(authorization ?? "no header"), got \(answer)")
        continue
      }
      #expect(String(decoding: body, as: UTF8.self) == #"{"error":true,"reason":"Invalid Token."}"#)
    }
  }

  @Test func tokenExpiredRenewsExactlyOnceAndTheCallSucceeds() async throws {
    let api = SimulatedPlacesAPI(scenario: .tokenExpired)
    let connection = simulatedConnection(api)
    try await simulatedLogIn(connection)
    let before = try #require(connection.session?.accessToken.value)
    #expect(try await connection.execute(SimulatedPlacesRequest()).value.count == 8)
    #expect(try await connection.execute(SimulatedPlaceRequest(id: 1)).value.city == "Hamburg")
    #expect(
      api.requests.map(\.endpoint) == [
        "users/retrieve-client", "oauth/token password", "v2/places", "oauth/token refresh_token",
        "v2/places", "v2/places/1",
      ])
    #expect(connection.session?.accessToken.value != before)
  }

  @Test func refreshRevokedEndsTheSession() async throws {
    let api = SimulatedPlacesAPI(scenario: .refreshRevoked)
    let connection = simulatedConnection(api)
    try await simulatedLogIn(connection)
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(SimulatedPlacesRequest())
    }
    guard case .sessionExpired? = error else {
      Issue.record("expected sessionExpired, got \(String(describing: error))")
      return
    }
    #expect(connection.session == nil)
    #expect(api.requests.filter { $0.endpoint == "oauth/token refresh_token" }.count == 1)
  }

  @Test func serverErrorAnswers500WithAReasonWhileLoginWorks() async throws {
    let connection = simulatedConnection(SimulatedPlacesAPI(scenario: .serverError))
    try await simulatedLogIn(connection)
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(SimulatedPlacesRequest())
    }
    #expect(error?.statusCode == 500)
    guard case .descriptiveServerError(let reason, _)? = error else {
      Issue.record("expected a descriptive 500, got \(String(describing: error))")
      return
    }
    #expect(reason.contains("unavailable"))
    #expect(connection.session != nil)
  }

  @Test func offlineFailsEveryCallAsTheNetworkWould() async throws {
    let session = try await issuedSession()
    let connection = simulatedConnection(SimulatedPlacesAPI(scenario: .offline))
    let loginError = await #expect(throws: ServerConnectionError.self) {
      try await simulatedLogIn(connection)
    }
    #expect(transportFailure(in: loginError)?.kind == .notConnectedToInternet)
    try connection.login(session: session)
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(SimulatedPlacesRequest())
    }
    #expect(transportFailure(in: error)?.kind == .notConnectedToInternet)
    #expect(connection.session == session)
  }

  @Test func badJSONFailsDecoding() async throws {
    let connection = simulatedConnection(SimulatedPlacesAPI(scenario: .badJSON))
    try await simulatedLogIn(connection)
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(SimulatedPlacesRequest())
    }
    guard case .decodingFailed? = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
  }

  @Test func slowAnswersLateAndCancellationEndsTheWaitAtOnce() async throws {
    let session = try await issuedSession()
    let quick = simulatedConnection(SimulatedPlacesAPI(scenario: .slow, slowDelay: 0.05))
    try quick.login(session: session)
    #expect(try await quick.execute(SimulatedPlacesRequest()).value.count == 8)

    let api = SimulatedPlacesAPI(scenario: .slow, slowDelay: 60)
    let connection = simulatedConnection(api)
    try connection.login(session: session)
    let call = Task { try await connection.execute(SimulatedPlacesRequest()) }
    // The call reached the simulator, whose answer is a minute away: a `cancelled` end below
    // came from the cancellation.
    #expect(await eventually { !api.requests.isEmpty })
    call.cancel()
    await #expect(throws: ServerConnectionError.cancelled) { _ = try await call.value }
  }

  @Test func itsRoutesServeAURLSessionToo() async throws {
    let api = SimulatedPlacesAPI(scenario: .tokenExpired)
    let connection = simulatedConnection(
      URLSessionTransport(configuration: .stubbed(by: api.routes)))
    try await simulatedLogIn(connection)
    #expect(try await connection.execute(SimulatedPlacesRequest()).value.count == 8)
    #expect(api.requests.filter { $0.endpoint == "oauth/token refresh_token" }.count == 1)
  }

  @Test func scenariosParseFromTheirCommandLineNames() {
    #expect(
      SimulationScenario.allCases.map(\.rawValue) == [
        "happy", "token-expired", "refresh-revoked", "server-error", "slow", "offline", "bad-json",
      ])
    #expect(SimulationScenario(rawValue: "token-expired") == .tokenExpired)
    #expect(SimulationScenario(rawValue: "tokenExpired") == nil)
    #expect(SimulationScenario.allCases.allSatisfy { !$0.summary.isEmpty })
  }
}
