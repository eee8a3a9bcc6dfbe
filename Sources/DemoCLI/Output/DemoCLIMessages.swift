import Convoy

/// The words for every failure democli reports: Convoy's standard sentences, plus democli's own
/// errors answered through the provider's `override`, so all wording goes through one
/// `ErrorMessageProvider`.
enum DemoCLIMessages {
  static let provider = ErrorMessageProvider(override: { error in
    switch error {
    case let error as UsageError: ErrorMessage(title: "Usage", text: text(for: error))
    case let error as ConfigurationError:
      ErrorMessage(title: "Configuration", text: text(for: error))
    default: nil
    }
  })

  private static func text(for error: UsageError) -> String {
    switch error {
    case .missingCommand: "No command given."
    case .unknownCommand(let name): "There is no command '\(name)'."
    case .unknownOption(let option, let command?): "'\(command)' has no option \(option)."
    case .unknownOption(let option, nil): "There is no option \(option)."
    case .missingValue(let option): "\(option) needs a value."
    case .unexpectedValue(let option): "\(option) takes no value."
    case .unexpectedArgument(let argument, let command):
      "'\(command)' does not take the argument '\(argument)'."
    case .missingArgument(let name, let command): "'\(command)' needs <\(name)>."
    case .invalidValue(let option, let value, let expected):
      "'\(value)' is not a valid value for \(option); expected \(expected)."
    case .missingCredentials(let text): text
    }
  }

  private static func text(for error: ConfigurationError) -> String {
    switch error {
    case .unreadable(let path, let reason):
      "The environments file \(path) couldn't be read: \(reason)."
    case .malformed(let path, let reason): "The environments file \(path) is not valid: \(reason)."
    }
  }
}
