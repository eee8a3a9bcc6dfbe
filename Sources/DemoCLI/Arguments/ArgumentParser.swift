/// A command line taken apart: which command, which options, which positional arguments.
struct ParsedArguments: Sendable, Equatable {
  /// The command's name; `nil` when only options such as `--help` were given.
  var command: String?
  /// Options that take a value, by name without dashes; the last occurrence wins.
  var values: [String: String] = [:]
  /// Boolean flags present, by name without dashes.
  var flags: Set<String> = []
  /// Positional arguments after the command.
  var positionals: [String] = []

  func value(_ name: String) -> String? { values[name] }
  func flag(_ name: String) -> Bool { flags.contains(name) }
  var wantsHelp: Bool { flag("help") }
}

/// Hand-written parsing (democli has no package dependencies): a command word, then
/// `--flag value`, `--flag=value`, boolean `--flag`, `-h`, and `--` before arguments that start
/// with a dash.
///
/// Options every command accepts may also come before the command. A value option followed by
/// another option (`--env --json`) is a missing value rather than a value `--json`; a value that
/// really starts with `--` can be written `--email=--odd`.
struct ArgumentParser: Sendable {
  /// Options every command accepts.
  var commonOptions: [OptionSpec]
  /// The commands.
  var commands: [CommandSpec]

  func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var options = commonOptions
    var command: CommandSpec?
    var remaining = arguments[...]
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if !optionsEnded, argument == "--" {
        optionsEnded = true
      } else if !optionsEnded, argument == "-h" {
        parsed.flags.insert("help")
      } else if !optionsEnded, argument.hasPrefix("--") {
        try parseOption(
          argument, specs: options, in: command?.name, rest: &remaining, into: &parsed)
      } else if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
        throw .unknownOption(argument, command: command?.name)
      } else if command == nil {
        guard let spec = commands.first(where: { $0.name == argument }) else {
          throw .unknownCommand(argument)
        }
        command = spec
        parsed.command = spec.name
        options = commonOptions + spec.options
      } else {
        parsed.positionals.append(argument)
      }
    }
    if let command, !parsed.wantsHelp { try check(parsed.positionals, against: command) }
    return parsed
  }

  private func parseOption(
    _ argument: String, specs: [OptionSpec], in command: String?,
    rest: inout ArraySlice<String>, into parsed: inout ParsedArguments
  ) throws(UsageError) {
    let body = argument.dropFirst(2)
    let name = String(body.prefix { $0 != "=" })
    let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
    guard let spec = specs.first(where: { $0.name == name }) else {
      throw .unknownOption("--" + name, command: command)
    }
    guard spec.takesValue else {
      guard inlineValue == nil else { throw .unexpectedValue(option: "--" + name) }
      parsed.flags.insert(name)
      return
    }
    if let inlineValue {
      parsed.values[name] = inlineValue
      return
    }
    guard let next = rest.first, !next.hasPrefix("--") else {
      throw .missingValue(option: "--" + name)
    }
    rest.removeFirst()
    parsed.values[name] = next
  }

  private func check(_ positionals: [String], against command: CommandSpec) throws(UsageError) {
    let required = command.arguments.filter { !$0.isOptional }
    if positionals.count < required.count {
      throw .missingArgument(required[positionals.count].name, command: command.name)
    }
    if positionals.count > command.arguments.count {
      throw .unexpectedArgument(positionals[command.arguments.count], command: command.name)
    }
  }
}
