/// `democli help [COMMAND]`: the same text as `democli --help` or `democli COMMAND --help`.
enum HelpCommand: Command {
  static let spec = CommandSpec(
    name: "help", summary: "show help for democli or for one command",
    arguments: [.init(name: "command", isOptional: true, help: "the command to explain")])

  static func run(_ context: CommandContext) async throws {
    try Terminal.writeOutput(text(for: context.arguments.positionals.first))
  }

  /// The general help, or the help of the command called `name`.
  static func text(for name: String?) throws(UsageError) -> String {
    guard let name else { return HelpText.general(Commands.all.map { $0.spec }) }
    guard let command = Commands.named(name) else { throw .unknownCommand(name) }
    return HelpText.command(command.spec)
  }
}
