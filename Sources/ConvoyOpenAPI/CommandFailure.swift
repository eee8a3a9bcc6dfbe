import ConvoyOpenAPIKit

/// Why a run failed: each case has its exit code and its sentence.
enum CommandFailure: Error, Sendable, Hashable {
  case missingCommand
  case unknownCommand(String)
  case unknownOption(String)
  case missingValue(option: String)
  case invalidValue(option: String, value: String, expected: String)
  case missingArgument(String)
  case unexpectedArgument(String)
  case unreadableDocument(path: String, reason: String)
  case unreadableConfiguration(path: String, reason: String)
  /// The generator refused `source`: the document, or the configuration file.
  case generation(GeneratorError, source: String)
  case cannotWrite(path: String, reason: String)

  var exitCode: ExitCode {
    switch self {
    case .missingCommand, .unknownCommand, .unknownOption, .missingValue, .invalidValue,
      .missingArgument, .unexpectedArgument:
      .usage
    case .unreadableDocument: .missingDocument
    case .unreadableConfiguration: .configuration
    case .generation(.unreadableConfiguration, _): .configuration
    case .generation(.invalidNamespace, _): .usage
    case .generation: .invalidDocument
    case .cannotWrite: .cannotWrite
    }
  }

  /// The sentence printed on standard error, naming the file it is about.
  var message: String {
    switch self {
    case .missingCommand: "No command given."
    case .unknownCommand(let name): "There is no command '\(name)'."
    case .unknownOption(let option): "There is no option \(option)."
    case .missingValue(let option): "\(option) needs a value."
    case .invalidValue(let option, let value, let expected):
      "'\(value)' is not a valid value for \(option); expected \(expected)."
    case .missingArgument(let name): "'generate' needs \(name)."
    case .unexpectedArgument(let argument): "'generate' does not take the argument '\(argument)'."
    case .unreadableDocument(let path, let reason):
      Self.sentence("The document \(path) couldn't be read: \(reason)")
    case .unreadableConfiguration(let path, let reason),
      .generation(.unreadableConfiguration(let reason), let path):
      Self.sentence("The configuration \(path) couldn't be read: \(reason)")
    case .generation(.unreadableDocument(let detail), let path):
      Self.sentence("The document \(path) is not valid YAML or JSON: \(detail)")
    case .generation(let error, let path):
      Self.sentence("Nothing was generated from \(path): \(error)")
    case .cannotWrite(let path, let reason):
      Self.sentence("\(path) couldn't be written: \(reason)")
    }
  }

  /// `text` ending in one period: a reason from Foundation often brings its own.
  private static func sentence(_ text: String) -> String {
    var text = text
    while text.last == "." || text.last == " " { text.removeLast() }
    return text + "."
  }
}
