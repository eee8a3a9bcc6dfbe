/// A command line democli cannot make sense of; always exit code 64 (`EX_USAGE`).
///
/// The wording lives in ``DemoCLIMessages``, like every other failure's.
enum UsageError: Error, Sendable, Hashable {
  case missingCommand
  case unknownCommand(String)
  case unknownOption(String, command: String?)
  case missingValue(option: String)
  case unexpectedValue(option: String)
  case unexpectedArgument(String, command: String)
  case missingArgument(String, command: String)
  case invalidValue(option: String, value: String, expected: String)
  case missingCredentials(String)

  /// The command whose help explains how to do it right, if the error is about one.
  var command: String? {
    switch self {
    case .unknownOption(_, let command): command
    case .unexpectedArgument(_, let command), .missingArgument(_, let command): command
    default: nil
    }
  }
}
