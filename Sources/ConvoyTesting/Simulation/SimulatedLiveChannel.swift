import Convoy
import Foundation

/// The server side of the simulator's live channel, `v2/updates/live`: a ``MockServer`` on the
/// loopback address, started on first use, whose WebSocket plays the channel.
///
/// The simulator has no sockets of its own, and a WebSocket needs one: the transport that opens
/// the channel (`CurlTransport`) connects here instead of to the environment's host.
final class SimulatedLiveChannel: Sendable {
  private let behaviour: PlacesAPIBehaviour
  private let server = Locked<MockServer?>(nil)

  init(behaviour: PlacesAPIBehaviour) {
    self.behaviour = behaviour
  }

  deinit {
    // Stops the server's threads: the accept loop and every open channel's script.
    server.withLock { $0 = nil }
  }

  /// `url` moved to the loopback server, path and query kept; starts the server first.
  func url(replacing url: URL) throws(TransportFailure) -> URL {
    let server = try started()
    var components = URLComponents(url: url, resolvingAgainstBaseURL: true) ?? URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = server.port
    components.user = nil
    components.password = nil
    guard let moved = components.url else {
      throw TransportFailure(kind: .unsupportedURL, detail: "simulated: cannot move \(url)")
    }
    return moved
  }

  private func started() throws(TransportFailure) -> MockServer {
    let result = server.withLock { server -> Result<MockServer, TransportFailure> in
      if let server { return .success(server) }
      let made = MockServer()
      made.route("/*") { [behaviour] request in behaviour.liveAnswer(for: request) }
      do {
        try made.startListening()
      } catch {
        return .failure(
          TransportFailure(
            kind: .cannotConnectToHost,
            detail: "simulated: the live channel's loopback server did not start: \(error)"))
      }
      server = made
      return .success(made)
    }
    return try result.get()
  }
}

// `v2/updates/live`: what the live channel's server answers and says.
extension PlacesAPIBehaviour {
  /// The answer to an upgrade request: the scenario's refusals as for the other endpoints (a
  /// missing, altered or expired token is answered 401), else the live channel.
  func liveAnswer(for request: RecordedRequest) -> MockAnswer {
    guard request.path.hasSuffix("v2/updates/live") else {
      return .text("There is no WebSocket at \(request.path).", status: 404)
    }
    let authorization = request.headers["Authorization"]
    if let refusal = refusal(authorization: authorization) {
      guard case .response(let status, let headers, let body) = refusal else {
        return .status(500)
      }
      return .data(body, status: status, headers: headers)
    }
    let subject =
      authorization.flatMap { SimulatedToken(verifying: String($0.dropFirst("bearer ".count))) }?
      .subject ?? ""
    let settings = LiveSettings(
      interval: feedInterval, isMalformed: scenario == .badJSON, user: subject, now: now)
    return .webSocket { socket in try await Self.playLiveChannel(on: socket, settings: settings) }
  }

  private struct LiveSettings: Sendable {
    var interval: TimeInterval
    var isMalformed: Bool
    var user: String
    var now: @Sendable () -> Date
  }

  /// A welcome, then a place update every interval (the first within 0.2 s), answering each of
  /// the client's messages in between, until the client closes or asks the server to.
  private static func playLiveChannel(on socket: MockWebSocket, settings: LiveSettings)
    async throws
  {
    let interval = Duration.seconds(max(0.001, settings.interval))
    try await socket.send(
      json([
        "type": "welcome", "user": settings.user, "interval": settings.interval,
        "message": #"Live place updates. Send {"subscribe": "<city>"} to follow one city."#,
      ]))
    var nextID = 1
    var city: String?
    var nextUpdate = ContinuousClock.now + min(.milliseconds(200), interval)
    while true {
      switch await socket.receive(timeout: ContinuousClock.now.duration(to: nextUpdate)) {
      case .closed:
        return
      case .message(let message):
        if let reason = closeRequest(in: message) {
          try await socket.close(code: .normalClosure, reason: reason)
          return
        }
        let (answer, subscribed) = answer(to: message)
        if let subscribed { city = subscribed }
        try await socket.send(json(answer))
      case .timedOut:
        // Following one city skips the other places' updates.
        while let city, SimulatedFeed.place(forUpdate: nextID).city != city { nextID += 1 }
        try await socket.send(
          .text(
            SimulatedFeed.updateJSON(
              id: nextID, at: settings.now(), malformed: settings.isMalformed,
              extra: ["type": "place-update"])))
        nextID += 1
        nextUpdate = ContinuousClock.now + interval
      }
    }
  }

  /// The reason of `{"close": "<reason>"}`: the client asks the server to end the channel.
  private static func closeRequest(in message: WebSocketMessage) -> String? {
    guard case .text(let text) = message,
      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { return nil }
    return object["close"] as? String
  }

  /// The answer to a client's message, and the city it subscribes to, if it does.
  private static func answer(to message: WebSocketMessage) -> ([String: Any], String?) {
    switch message {
    case .binary(let data):
      return (["type": "ack", "bytes": data.count], nil)
    case .text(let text):
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        let wanted = object["subscribe"] as? String
      else { return (["type": "ack", "text": text], nil) }
      guard
        let place = SimulatedPlacesAPI.places.first(where: {
          $0.city.caseInsensitiveCompare(wanted) == .orderedSame
        })
      else { return (["type": "error", "reason": "There are no places in \(wanted)."], nil) }
      return (["type": "subscribed", "city": place.city], place.city)
    }
  }

  private static func json(_ object: [String: Any]) -> WebSocketMessage {
    let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return .text(String(decoding: data ?? Data(), as: UTF8.self))
  }
}
