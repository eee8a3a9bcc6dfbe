import Convoy

/// `democli place <id>`: one place, signed with the saved session.
enum PlaceCommand: Command {
  static let spec = CommandSpec(
    name: "place", summary: "show one place (needs a login)",
    arguments: [.init(name: "id", help: "the place's number, as `places` lists it")],
    discussion: """
      Example:
        democli place 3 --env staging --simulate
      """)

  static func run(_ context: CommandContext) async throws {
    let text = context.arguments.positionals[0]
    guard let id = Int(text), id > 0 else {
      throw UsageError.invalidValue(option: "<id>", value: text, expected: "a positive number")
    }
    let connection = try context.connection()
    let place = try await context.withProgress("Loading place \(id)") { _ in
      try await context.runner.run { queue, done in
        connection.execute(PlaceRequest(id: id), completionQueue: queue, completion: done)
      }
    }.value
    context.output.result(human: PlaceFormatting.details(place), json: PlaceFormatting.json(place))
  }
}
