/// The `generate` command line, taken apart by hand (convoy-openapi has no dependencies):
/// `--option value`, `--option=value`, `-h`/`--help`, and `--` before arguments that start
/// with a dash. The design follows democli's parser.
struct CommandLineArguments: Sendable, Equatable {
  var wantsHelp = false
  var wantsVersion = false
  var document: String?
  var output: String?
  var namespace: String?
  var access: String?
  var config: String?
  var quiet = false

  static let valueOptions: Set<String> = ["output", "namespace", "access", "config"]

  static func parse(_ arguments: [String]) throws(CommandFailure) -> CommandLineArguments {
    var parsed = CommandLineArguments()
    var remaining = arguments[...]
    var sawCommand = false
    var optionsEnded = false
    var positionals: [String] = []
    while let argument = remaining.popFirst() {
      if !optionsEnded, argument == "--" {
        optionsEnded = true
      } else if !optionsEnded, argument == "-h" || argument == "--help" {
        parsed.wantsHelp = true
      } else if !optionsEnded, argument == "--version" {
        parsed.wantsVersion = true
      } else if !optionsEnded, argument == "--quiet" || argument == "-q" {
        parsed.quiet = true
      } else if !optionsEnded, argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        guard Self.valueOptions.contains(name) else { throw .unknownOption("--" + name) }
        var value: String
        if let equals = body.firstIndex(of: "=") {
          value = String(body[body.index(after: equals)...])
        } else {
          guard let next = remaining.first, !next.hasPrefix("--") else {
            throw .missingValue(option: "--" + name)
          }
          value = next
          remaining.removeFirst()
        }
        if value.isEmpty { throw .missingValue(option: "--" + name) }
        switch name {
        case "output": parsed.output = value
        case "namespace": parsed.namespace = value
        case "access":
          guard value == "public" || value == "internal" else {
            throw .invalidValue(option: "--access", value: value, expected: "public or internal")
          }
          parsed.access = value
        default: parsed.config = value
        }
      } else if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
        throw .unknownOption(argument)
      } else if !sawCommand {
        guard argument == "generate" else { throw .unknownCommand(argument) }
        sawCommand = true
      } else {
        positionals.append(argument)
      }
    }
    if parsed.wantsHelp || parsed.wantsVersion { return parsed }
    guard sawCommand else { throw .missingCommand }
    guard let document = positionals.first else { throw .missingArgument("<document>") }
    if positionals.count > 1 { throw .unexpectedArgument(positionals[1]) }
    parsed.document = document
    guard parsed.output != nil else { throw .missingArgument("--output <directory>") }
    return parsed
  }
}
