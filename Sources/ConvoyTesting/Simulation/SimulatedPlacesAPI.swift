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
/// - `GET v2/places/{id}/photo`: the place's photo (a little over 40 MB of
///   `application/octet-stream`) with `ETag` and `Accept-Ranges: bytes`; `Range: bytes=N-` (or
///   `N-M`) is answered 206 with `Content-Range` unless `If-Range` names another entity tag,
///   which gets the whole photo with 200. Paced to ``photoBytesPerSecond`` when set.
/// - `POST v2/places/{id}/notes`: needs the token; JSON `{"text"}` → 201 `{"id", "place",
///   "text"}`. A request with an `Idempotency-Key` already used gets the first answer again,
///   with `Idempotent-Replayed: true`, and creates nothing (``SimulatedNotes``).
/// - `GET v2/updates`: the live feed of place updates as server-sent events
///   (`text/event-stream`): `retry:` with the feed's interval, the first event within 0.2 s, then
///   one every ``feedInterval``, each with an `id:` and `event: place-update`; the connection is
///   dropped after ``feedEventsPerConnection`` events, and a connection with `Last-Event-ID`
///   carries on after that id. The token scenarios also refuse the feed's first reconnection
///   with 401, as if the token had expired while the stream ran.
/// - `v2/updates/live` (WebSocket, on Linux): the live channel. Opened as
///   `connection.webSocket(WebSocketEndpoint(path: "v2/updates/live", requiresAuthentication:
///   true))`, it needs the token too (401 otherwise). It sends a JSON welcome
///   (`{"type": "welcome", "user", "interval", "message"}`), then a place update every
///   ``feedInterval`` (the first within 0.2 s; the feed's JSON plus `"type": "place-update"`),
///   and answers each message the client sends: `{"subscribe": "<city>"}` with
///   `{"type": "subscribed", "city"}` (then only that city's updates come; a city without places
///   gets `{"type": "error", "reason"}`), any other text with `{"type": "ack", "text"}`, binary
///   with `{"type": "ack", "bytes"}`; `{"close": "<reason>"}` has the server close with 1000 and
///   that reason. Otherwise it runs until the client closes; its pace is real time,
///   whatever ``clock`` says. A WebSocket needs a socket, so the simulator serves the channel
///   from a ``MockServer`` on the loopback address, started with the first WebSocket, and opens
///   it with a `CurlTransport`; on other platforms the simulator cannot open WebSockets.
///
/// The photo and the feed need a token like the places endpoints, and stream when asked for as
/// streams (`AnswerDelivery.streamed`): the body is made piece by piece as it is due, never
/// whole in memory, honouring the receiver's pauses; a dropped feed connection completes with
/// `TransportFailure/Kind/networkConnectionLost`.
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
  /// The photo's pace in bytes per second, or `nil` to send it as fast as it is read.
  public let photoBytesPerSecond: Int?
  /// The time between two events of the live feed.
  public let feedInterval: TimeInterval
  /// How many events the live feed sends before it drops the connection.
  public let feedEventsPerConnection: Int
  /// The route table behind the simulator, e.g. for `URLSessionConfiguration.stubbed(by:)`.
  public let routes = StubRoutes()
  /// The clock the simulator reads and waits on: token expiry, the slow scenario's delay, the
  /// photo's pace and the feed's interval.
  public let clock: any ConvoyClock

  private let transport: StubTransport
  private let behaviour: PlacesAPIBehaviour
  /// The live channel's loopback server, started when the first WebSocket opens.
  let live: SimulatedLiveChannel

  /// Creates a simulator.
  ///
  /// - Parameters:
  ///   - scenario: How it behaves; ``SimulationScenario/happy`` by default.
  ///   - accessTokenLifetime: Seconds an access token lives; 5 minutes by default. Keep it
  ///     above the client's refresh margin (60 s by default), or every call renews first.
  ///   - refreshTokenLifetime: Seconds a refresh token lives; 30 days by default.
  ///   - slowDelay: Seconds every answer takes in the `slow` scenario.
  ///   - photoBytesPerSecond: The photo's pace; `nil` (the default) sends it unpaced.
  ///   - feedInterval: Seconds between two events of the live feed; 1 by default.
  ///   - feedEventsPerConnection: Events the feed sends before dropping the connection; 5 by
  ///     default.
  ///   - clock: The time the simulator reads and waits on; real time by default. A test gives
  ///     it a `TestClock` to expire tokens and to release slow answers, paced pieces and feed
  ///     events by advancing the clock.
  ///   - notes: Where posted notes and their idempotency keys are kept; in memory by default,
  ///     a ``SimulatedNotes`` with a file to remember them across processes.
  public init(
    scenario: SimulationScenario = .happy, accessTokenLifetime: TimeInterval = 300,
    refreshTokenLifetime: TimeInterval = 30 * 24 * 3_600, slowDelay: TimeInterval = 1.5,
    photoBytesPerSecond: Int? = nil, feedInterval: TimeInterval = 1,
    feedEventsPerConnection: Int = 5, clock: any ConvoyClock = .system,
    notes: SimulatedNotes = SimulatedNotes()
  ) {
    self.scenario = scenario
    self.accessTokenLifetime = accessTokenLifetime
    self.refreshTokenLifetime = refreshTokenLifetime
    self.slowDelay = slowDelay
    self.photoBytesPerSecond = photoBytesPerSecond
    self.feedInterval = feedInterval
    self.feedEventsPerConnection = max(1, feedEventsPerConnection)
    self.clock = clock
    transport = StubTransport(routes: routes)
    transport.clock = clock
    // The routes hold the behaviour, not the simulator, so a table handed to
    // `URLSessionConfiguration.stubbed(by:)` keeps working on its own.
    var behaviour = PlacesAPIBehaviour(
      scenario: scenario, accessTokenLifetime: accessTokenLifetime,
      refreshTokenLifetime: refreshTokenLifetime, slowDelay: slowDelay, now: { clock.now })
    behaviour.photoBytesPerSecond = photoBytesPerSecond
    behaviour.feedInterval = feedInterval
    behaviour.feedEventsPerConnection = self.feedEventsPerConnection
    behaviour.notes = notes
    behaviour.register(in: routes)
    self.behaviour = behaviour
    live = SimulatedLiveChannel(behaviour: behaviour)
  }

  /// Every request received so far, in order.
  public var requests: [StubRequest] { routes.requests }

  /// Answers from the simulated endpoints. The photo and the live feed, asked for as streams,
  /// are made piece by piece as they are due; every other answer is made whole.
  public nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    guard case .streamed = request.answerDelivery else {
      return try await transport.send(request)
    }
    return try await CallbackTransfer.streamed(request) {
      startStreamingTransfer(request, receiver: $0)
    }
  }

  /// Streams the photo and the live feed piece by piece as they are due, honouring the
  /// receiver's pauses; every other endpoint is answered whole and then handed over.
  package func startStreamingTransfer(_ request: TransportRequest, receiver: any TransferReceiver)
    -> any StreamingTransferHandle
  {
    guard let (answer, matched) = behaviour.streamedAnswer(for: StubRequest(request)) else {
      return transport.startStreamingTransfer(request, receiver: receiver)
    }
    routes.record(matched)
    let transfer = SimulatedStreamingTransfer(
      receiver: receiver, url: request.urlRequest.url, clock: clock)
    transfer.start(answer)
    return transfer
  }
}
