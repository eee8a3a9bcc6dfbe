import Convoy
import Foundation

/// The live feed's body for one connection: `retry:`, then a place update every interval, each
/// with an `id:`, until the connection is dropped after a few events, so clients show their
/// reconnection. Ids go on from the `Last-Event-ID` the connection asked with.
final class SimulatedFeed: SimulatedBody {
  private let settings: FeedSettings
  private var nextID: Int
  private var sentOnThisConnection = 0
  private var hasGreeted = false
  private var isWaitingForNext = false

  /// How the feed paces itself; the same for every connection of one simulator.
  struct FeedSettings: Sendable {
    var interval: TimeInterval
    var eventsPerConnection: Int
    var isMalformed: Bool
    var now: @Sendable () -> Date
  }

  init(after lastEventID: Int, settings: FeedSettings) {
    self.settings = settings
    self.nextID = lastEventID + 1
  }

  func nextStep() -> SimulatedBodyStep {
    if !hasGreeted {
      hasGreeted = true
      isWaitingForNext = true
      // `retry:` asks clients to come back after a second, the feed's own pace.
      let retry = Int(max(0.1, settings.interval) * 1_000)
      return .send(Data("retry: \(retry)\n: place updates\n\n".utf8))
    }
    if isWaitingForNext {
      isWaitingForNext = false
      // The first event comes well within a second; later ones at the feed's pace.
      return .wait(sentOnThisConnection == 0 ? min(0.2, settings.interval) : settings.interval)
    }
    if sentOnThisConnection >= settings.eventsPerConnection { return .drop }
    defer {
      nextID += 1
      sentOnThisConnection += 1
      isWaitingForNext = true
    }
    return .send(
      Data(Self.event(id: nextID, at: settings.now(), malformed: settings.isMalformed).utf8))
  }

  /// The text of event `id`: which place changed and how many visitors it has now.
  static func event(id: Int, at date: Date, malformed: Bool = false) -> String {
    "id: \(id)\nevent: place-update\ndata: \(updateJSON(id: id, at: date, malformed: malformed))\n\n"
  }

  /// The place update `id` (which place changed and how many visitors it has now) as compact
  /// JSON with sorted keys, plus `extra` fields; cut short when `malformed`.
  static func updateJSON(
    id: Int, at date: Date, malformed: Bool = false, extra: [String: Any] = [:]
  ) -> String {
    if malformed { return #"{"id": \#(id), "name": "# }
    let place = place(forUpdate: id)
    let update: [String: Any] = [
      "id": id, "placeId": place.id, "name": place.name, "city": place.city,
      "visitors": (id * 37) % 120 + 5, "at": date.formatted(Date.ISO8601FormatStyle()),
    ].merging(extra) { _, new in new }
    return String(
      decoding: (try? JSONSerialization.data(withJSONObject: update, options: [.sortedKeys]))
        ?? Data(), as: UTF8.self)
  }

  /// The place update `id` is about: the places in turn.
  static func place(forUpdate id: Int) -> SimulatedPlace {
    let places = SimulatedPlacesAPI.places
    return places[(id - 1) % places.count]
  }
}
