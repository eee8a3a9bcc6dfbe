import Convoy
import Foundation

/// `democli watch`: follows the live feed of place updates (server-sent events) and prints a
/// line per event until Ctrl-C, reconnecting whenever the connection drops.
enum WatchCommand: Command {
  static let spec = CommandSpec(
    name: "watch", summary: "follow live place updates until Ctrl-C (needs a login)",
    discussion: """
      Prints one line per update (with --json one JSON object per line) and runs until
      Ctrl-C (exit 130). When the connection drops, a note on standard error says so and
      democli reconnects, asking for the updates after the last one it printed; an expired
      login is renewed on the way.

      Examples:
        democli watch --env staging --simulate
        democli watch --env staging --scenario token-expired --json
      """)

  static func run(_ context: CommandContext) async throws {
    let connection = try context.connection(observers: [ReconnectionNotes(output: context.output)])
    let follow = Task {
      for try await event in connection.events(UpdatesRequest()) {
        let update = try JSONDecoder().decode(PlaceUpdate.self, from: Data(event.data.utf8))
        context.output.line(human: line(update), json: json(update, event: event))
      }
    }
    try await context.interruption.cancelling(with: follow.cancel) { try await follow.value }
  }

  /// The human line for `update`; `live` prints updates the same way.
  static func line(_ update: PlaceUpdate) -> String {
    let place = [update.name, update.city].compactMap { $0 }.joined(separator: ", ")
    let time = update.at.map { " at \($0)" } ?? ""
    return "#\(update.id) \(place): \(update.visitors) visitors\(time)"
  }

  private static func json(_ update: PlaceUpdate, event: ServerSentEvent) -> [String: Any] {
    [
      "eventId": Output.nullable(event.id), "type": event.type, "id": update.id,
      "placeId": update.placeId, "name": update.name, "city": Output.nullable(update.city),
      "visitors": update.visitors, "at": Output.nullable(update.at),
    ]
  }
}

/// Says on standard error when the feed's connection dropped and democli reconnects.
private struct ReconnectionNotes: EventObserver {
  let output: Output

  func receive(_ event: ConvoyEvent) {
    guard case .streamReconnecting(let reconnecting) = event.kind else { return }
    let delay = String(format: "%.1f s", reconnecting.delay)
    output.note("Connection lost; reconnecting in \(delay) (reconnection \(reconnecting.attempt))")
  }
}
