import Convoy
import Foundation

// The endpoints whose answers stream: a place's photo and the live feed. Both are answered
// piece by piece by `SimulatedStreamingTransfer`, and whole by the route table for callers that
// buffer.
extension PlacesAPIBehaviour {
  static let photoRoute = StubRoute(.get, "v2/places/{id}/photo", answer: .status(404))
  static let feedRoute = StubRoute(.get, "v2/updates", answer: .status(404))

  /// The streamed answer for `request` when it asks for a streaming endpoint, else `nil`; the
  /// scenario's effects (offline, slow, token refusals, server errors) apply as elsewhere.
  func streamedAnswer(for request: StubRequest) -> (SimulatedStreamAnswer, StubRequest)? {
    for (route, isFeed) in [(Self.photoRoute, false), (Self.feedRoute, true)] {
      guard let parameters = route.match(request) else { continue }
      var matched = request
      matched.pathParameters = parameters
      return (streamedAnswer(for: matched, isFeed: isFeed), matched)
    }
    return nil
  }

  func registerStreams(in routes: StubRoutes) {
    // Buffered callers get the same answers whole: the photo at once, the feed's events until
    // its first drop.
    routes.on(.get, Self.photoRoute.pathPattern) { [self] request in
      streamedAnswer(for: request, isFeed: false).buffered
    }
    routes.on(.get, Self.feedRoute.pathPattern) { [self] request in
      streamedAnswer(for: request, isFeed: true).buffered
    }
  }

  private func streamedAnswer(for request: StubRequest, isFeed: Bool) -> SimulatedStreamAnswer {
    if scenario == .offline {
      return SimulatedStreamAnswer(
        .failure(TransportFailure(kind: .notConnectedToInternet, detail: "simulated: offline")),
        for: request)
    }
    let delay = scenario == .slow ? slowDelay : 0
    if let refusal = refusal(
      request, isFeedReconnect: isFeed && request.header("Last-Event-ID") != nil)
    {
      return SimulatedStreamAnswer(.delayed(delay, refusal), for: request)
    }
    var answer = isFeed ? feed(request) : photo(request)
    answer.headDelay += delay
    return answer
  }

  /// `GET v2/updates`: server-sent events, resumed after `Last-Event-ID`.
  private func feed(_ request: StubRequest) -> SimulatedStreamAnswer {
    let lastID = request.header("Last-Event-ID").flatMap { Int($0) } ?? 0
    let settings = SimulatedFeed.FeedSettings(
      interval: feedInterval, eventsPerConnection: feedEventsPerConnection,
      isMalformed: scenario == .badJSON, now: now)
    return SimulatedStreamAnswer(
      status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"]
    ) { SimulatedFeed(after: max(0, lastID), settings: settings) }
  }

  /// `GET v2/places/{id}/photo`: the photo, or the part `Range` asks for while `If-Range` (when
  /// sent) still names it (RFC 9110 §14.2, §13.1.5).
  private func photo(_ request: StubRequest) -> SimulatedStreamAnswer {
    let text = request.pathParameters["id"] ?? ""
    guard let id = Int(text), SimulatedPlacesAPI.places.contains(where: { $0.id == id }) else {
      return SimulatedStreamAnswer(
        .json(["error": true, "reason": "There is no place with id \(text)."], status: 404),
        for: request)
    }
    let size = SimulatedPhoto.size(placeID: id)
    let tag = SimulatedPhoto.entityTag(placeID: id)
    var headers: HTTPHeaders = [
      "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes", "ETag": tag,
    ]
    var range: Range<Int64> = 0..<size
    var status = 200
    if let asked = request.header("Range"), request.header("If-Range").map({ $0 == tag }) ?? true,
      let bounds = Self.byteRange(asked, size: size)
    {
      guard let bounds = bounds else {
        headers["Content-Range"] = "bytes */\(size)"
        return SimulatedStreamAnswer(
          .response(status: 416, headers: headers, body: Data()), for: request)
      }
      range = bounds
      status = 206
      headers["Content-Range"] = "bytes \(bounds.lowerBound)-\(bounds.upperBound - 1)/\(size)"
    }
    headers["Content-Length"] = String(range.count)
    let rate = photoBytesPerSecond
    return SimulatedStreamAnswer(status: status, headers: headers) { [range] in
      PhotoBody(placeID: id, range: range, bytesPerSecond: rate)
    }
  }

  /// `bytes=N-` or `bytes=N-M` within `size`: `.some(nil)` when it cannot be satisfied, `nil`
  /// when it is not a single byte range (then the whole photo is sent, as RFC 9110 allows).
  static func byteRange(_ text: String, size: Int64) -> Range<Int64>?? {
    let value = text.trimmingCharacters(in: .whitespaces)
    guard value.lowercased().hasPrefix("bytes="), !value.contains(",") else { return nil }
    let bounds = value.dropFirst("bytes=".count).split(
      separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard bounds.count == 2, let first = Int64(bounds[0]) else { return nil }
    let last = bounds[1].isEmpty ? Int64.max : Int64(bounds[1])
    guard let last, last >= first else { return nil }
    guard first < size else { return .some(nil) }
    return .some(first..<(min(last, size - 1) + 1))
  }
}

/// The photo's bytes in pieces of 64 KiB, paced to a rate when one is set.
final class PhotoBody: SimulatedBody {
  private static let pieceSize: Int64 = 64 << 10
  private let placeID: Int
  private let range: Range<Int64>
  private let bytesPerSecond: Int?
  private var offset: Int64
  private var isPacing = false

  init(placeID: Int, range: Range<Int64>, bytesPerSecond: Int?) {
    self.placeID = placeID
    self.range = range
    self.bytesPerSecond = bytesPerSecond
    self.offset = range.lowerBound
  }

  func nextStep() -> SimulatedBodyStep {
    if isPacing, let bytesPerSecond, bytesPerSecond > 0 {
      isPacing = false
      return .wait(Double(Self.pieceSize) / Double(bytesPerSecond))
    }
    guard offset < range.upperBound else { return .end }
    let end = min(offset + Self.pieceSize, range.upperBound)
    defer {
      offset = end
      isPacing = true
    }
    return .send(SimulatedPhoto.bytes(placeID: placeID, range: offset..<end))
  }
}
