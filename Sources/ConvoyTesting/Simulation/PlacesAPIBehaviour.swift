import Convoy
import Foundation

/// What the simulated Places API answers: the endpoints, plus the scenario's effects, which
/// live here once rather than in every endpoint.
struct PlacesAPIBehaviour: Sendable {
  let scenario: SimulationScenario
  let accessTokenLifetime: TimeInterval
  let refreshTokenLifetime: TimeInterval
  let slowDelay: TimeInterval
  let now: @Sendable () -> Date
  var photoBytesPerSecond: Int?
  var feedInterval: TimeInterval = 1
  var feedEventsPerConnection = 5
  /// The notes posted, and the idempotency keys honoured.
  var notes = SimulatedNotes()
  /// Whether the first authenticated call was refused yet (the token scenarios refuse it once).
  private let hasRefusedFirstCall = Locked(false)
  /// Whether the feed's first reconnection was refused yet (the token scenarios refuse it too,
  /// as a token that expired while the stream ran).
  private let hasRefusedFirstReconnect = Locked(false)

  init(
    scenario: SimulationScenario, accessTokenLifetime: TimeInterval,
    refreshTokenLifetime: TimeInterval, slowDelay: TimeInterval,
    now: @escaping @Sendable () -> Date
  ) {
    self.scenario = scenario
    self.accessTokenLifetime = accessTokenLifetime
    self.refreshTokenLifetime = refreshTokenLifetime
    self.slowDelay = slowDelay
    self.now = now
  }

  func register(in routes: StubRoutes) {
    route(.post, "users/retrieve-client", in: routes) { $0.retrieveClient($1) }
    route(.post, "oauth/token", in: routes) { $0.issueToken($1) }
    route(.get, "v2/places", in: routes) { behaviour, request in
      behaviour.authenticated(request) { behaviour.listPlaces(request) }
    }
    route(.get, "v2/places/{id}", in: routes) { behaviour, request in
      behaviour.authenticated(request) { behaviour.showPlace(request) }
    }
    route(.post, "v2/uploads", in: routes) { behaviour, request in
      behaviour.authenticated(request) { behaviour.receiveUpload(request) }
    }
    route(.post, "v2/places/{id}/notes", in: routes) { behaviour, request in
      behaviour.authenticated(request) { behaviour.postNote(request) }
    }
    registerStreams(in: routes)
  }

  private func route(
    _ method: HTTPMethod, _ path: String, in routes: StubRoutes,
    _ endpoint: @escaping @Sendable (PlacesAPIBehaviour, StubRequest) -> StubAnswer
  ) {
    routes.on(method, path) { [self] request in
      switch scenario {
      case .offline:
        .failure(TransportFailure(kind: .notConnectedToInternet, detail: "simulated: offline"))
      case .slow:
        .delayed(slowDelay, endpoint(self, request))
      default:
        endpoint(self, request)
      }
    }
  }

  /// Runs `endpoint` for a request with a valid access token; answers 401 otherwise, and to the
  /// first such call in the scenarios that refuse it.
  private func authenticated(_ request: StubRequest, endpoint: () -> StubAnswer) -> StubAnswer {
    if let refusal = refusal(request) { return refusal }
    guard scenario == .badJSON else { return endpoint() }
    return .response(
      status: 200, headers: ["Content-Type": "application/json"],
      body: Data(#"[{"id": 1, "name": "Harbour Promenade", "city": "#.utf8))
  }

  /// The 401 for a request without a valid access token (or the first one, or the feed's first
  /// reconnection, in the scenarios that refuse them), or the scenario's 500; `nil` to answer.
  func refusal(_ request: StubRequest, isFeedReconnect: Bool = false) -> StubAnswer? {
    refusal(authorization: request.header("Authorization"), isFeedReconnect: isFeedReconnect)
  }

  /// ``refusal(_:isFeedReconnect:)`` for a request whose `Authorization` field is
  /// `authorization`: the live channel's upgrade, which comes to a socket rather than the routes.
  func refusal(authorization: String?, isFeedReconnect: Bool = false) -> StubAnswer? {
    let invalidToken = StubAnswer.json(["error": true, "reason": "Invalid Token."], status: 401)
    if [.tokenExpired, .refreshRevoked].contains(scenario) {
      let isFirst = hasRefusedFirstCall.withLock { refused in
        defer { refused = true }
        return !refused
      }
      let isFirstReconnect =
        isFeedReconnect
        && hasRefusedFirstReconnect.withLock { refused in
          defer { refused = true }
          return !refused
        }
      if isFirst || isFirstReconnect { return invalidToken }
    }
    let header = authorization ?? ""
    guard header.lowercased().hasPrefix("bearer "),
      let token = SimulatedToken(verifying: String(header.dropFirst("bearer ".count))),
      token.kind == .access, !token.isExpired(at: now())
    else { return invalidToken }
    guard scenario == .serverError else { return nil }
    return .json(
      ["error": true, "reason": "The places service is unavailable. Try again later."],
      status: 500)
  }
}
