import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The seed's company API, simulated in memory: log in, renew tokens and read places, in a
/// ``SimulationScenario`` of your choice.
///
/// It is a transport, so any environment can be routed through it:
///
/// ```swift
/// let connection = ServerConnection(
///   configuration: .staging, transport: SimulatedPlacesAPI(scenario: .tokenExpired))
/// ```
///
/// Endpoints (routes match the end of the path, so every base URL works):
/// - `POST users/retrieve-client`: JSON `{"email", "password"}` → `{"client_id", "client_secret"}`.
/// - `POST oauth/token`: form-encoded `password` and `refresh_token` grants with the client's
///   credentials (form fields or HTTP Basic) → RFC 6749 JSON; refusals are 400 `invalid_grant`.
/// - `GET v2/places` (optionally `?city=`) and `GET v2/places/{id}`: need `Authorization:
///   Bearer <access token>`; a missing, altered or expired token is answered 401
///   `{"error": true, "reason": "Invalid Token."}`.
///
/// Tokens are ``SimulatedToken``s: any simulator accepts those another one issued, in this
/// process or another. The users, client and places are public: ``users``, ``client``,
/// ``places``. Every request is recorded in ``requests``.
public final class SimulatedPlacesAPI: HTTPTransport {
  /// How this simulator misbehaves, if at all.
  public let scenario: SimulationScenario
  /// How long an access token lives.
  public let accessTokenLifetime: TimeInterval
  /// How long a refresh token lives.
  public let refreshTokenLifetime: TimeInterval
  /// How long every answer takes in the ``SimulationScenario/slow`` scenario.
  public let slowDelay: TimeInterval
  /// The route table behind the simulator, e.g. for `URLSessionConfiguration.stubbed(by:)`.
  public let routes = StubRoutes()

  private let transport: StubTransport

  /// Creates a simulator.
  ///
  /// - Parameters:
  ///   - scenario: How it behaves; ``SimulationScenario/happy`` by default.
  ///   - accessTokenLifetime: Seconds an access token lives; 5 minutes by default. Keep it
  ///     above the client's refresh margin (60 s by default), or every call renews first.
  ///   - refreshTokenLifetime: Seconds a refresh token lives; 30 days by default.
  ///   - slowDelay: Seconds every answer takes in the `slow` scenario.
  ///   - now: The simulator's clock, for tests of expiry.
  public init(
    scenario: SimulationScenario = .happy, accessTokenLifetime: TimeInterval = 300,
    refreshTokenLifetime: TimeInterval = 30 * 24 * 3_600, slowDelay: TimeInterval = 1.5,
    now: @escaping @Sendable () -> Date = Date.init
  ) {
    self.scenario = scenario
    self.accessTokenLifetime = accessTokenLifetime
    self.refreshTokenLifetime = refreshTokenLifetime
    self.slowDelay = slowDelay
    transport = StubTransport(routes: routes)
    // The routes hold the behaviour, not the simulator, so a table handed to
    // `URLSessionConfiguration.stubbed(by:)` keeps working on its own.
    let behaviour = PlacesAPIBehaviour(
      scenario: scenario, accessTokenLifetime: accessTokenLifetime,
      refreshTokenLifetime: refreshTokenLifetime, slowDelay: slowDelay, now: now)
    behaviour.register(in: routes)
  }

  /// Every request received so far, in order.
  public var requests: [StubRequest] { routes.requests }

  /// Answers from the simulated endpoints.
  public func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    transport.startTransfer(request, completion: completion)
  }
}
