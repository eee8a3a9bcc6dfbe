import Convoy
import Foundation

/// Parses the command line, runs the command, and turns any failure into its sentence on
/// standard error and its exit code.
enum DemoCLI {
  static let parser = ArgumentParser(
    commonOptions: CommonOptions.specs, commands: Commands.all.map { $0.spec })

  static func run(
    arguments: [String], environmentVariables: [String: String], interruption: Interruption
  ) async -> ExitCode {
    var parsed: ParsedArguments?
    var context: CommandContext?
    do {
      parsed = try parser.parse(arguments)
      guard let arguments = parsed, let name = arguments.command,
        let command = Commands.named(name)
      else {
        guard parsed?.wantsHelp == true else { throw UsageError.missingCommand }
        Terminal.writeOutput(try HelpCommand.text(for: nil))
        return .success
      }
      if arguments.wantsHelp {
        Terminal.writeOutput(HelpText.command(command.spec))
        return .success
      }
      let commandContext = try CommandContext(
        arguments: arguments, environmentVariables: environmentVariables,
        interruption: interruption)
      context = commandContext
      try await command.run(commandContext)
      return .success
    } catch {
      return FailureReport(
        error: error, arguments: parsed, eventLog: context?.eventLog,
        wasInterrupted: interruption.wasInterrupted
      ).write(isJSON: parsed?.flag("json") ?? arguments.contains("--json"))
    }
  }
}
