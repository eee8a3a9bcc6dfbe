import Convoy
import Foundation

/// `democli places`: the places list, signed with the saved session.
enum PlacesCommand: Command {
  static let spec = CommandSpec(
    name: "places", summary: "list places (needs a login)",
    options: [.value("city", "CITY", "only places in this city")],
    discussion: """
      Examples:
        democli places --env staging --simulate
        democli places --env staging --simulate --city Hamburg --json
      """)

  static func run(_ context: CommandContext) async throws {
    let connection = try context.connection()
    let request = PlacesRequest(city: context.arguments.value("city"))
    let places = try await context.withProgress("Loading places") { _ in
      try await context.runner.run { queue, done in
        connection.execute(request, completionQueue: queue, completion: done)
      }
    }.value
    context.output.result(
      human: PlaceFormatting.table(places), json: places.map(PlaceFormatting.json))
  }
}
