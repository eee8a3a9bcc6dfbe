import Convoy
import Foundation

/// How a failure is reported: its sentence on standard error, a hint for what to do next, with
/// `--json` an error object on standard output, with `--verbose` the developer description
/// (redacted) in the event log; then its exit code.
struct FailureReport {
  let error: any Error
  let arguments: ParsedArguments?
  let eventLog: (any EventObserver)?
  let wasInterrupted: Bool

  func write(isJSON: Bool) -> ExitCode {
    // Ctrl-C is what the user asked for: no sentence, just the conventional code.
    if wasInterrupted || error.isCancellation { return .interrupted }
    let code = ExitCode(for: error)
    let text = DemoCLIMessages.provider.message(for: error)?.text ?? "\(error)"
    eventLog?.receive(.notice("failure: \(error)"))
    Terminal.writeError(text + "\n" + (hint(for: code).map { $0 + "\n" } ?? ""))
    if isJSON {
      let failure: [String: Any] = [
        "category": category, "message": text, "exitCode": Int(code.rawValue),
      ]
      Terminal.writeOutput(Output.encode(["error": failure]) + "\n")
    }
    return code
  }

  private var category: String {
    switch error {
    case is UsageError: "usage"
    case is ConfigurationError: "configuration"
    default: ErrorMessageProvider.category(of: error).rawValue
    }
  }

  private func hint(for code: ExitCode) -> String? {
    switch code {
    case .usage:
      let command = (error as? UsageError)?.command ?? arguments?.command
      return "Run 'democli \(command.map { "\($0) " } ?? "")--help' for usage."
    case .notPermitted where arguments?.command != "login":
      var login = [
        "democli", "login", "--env", arguments?.value("env") ?? CommonOptions.defaultEnvironment,
      ]
      if arguments?.flag("simulate") == true || arguments?.value("scenario") != nil {
        login.append("--simulate")
      }
      return "Log in with: \(login.joined(separator: " "))"
    default:
      return nil
    }
  }
}
