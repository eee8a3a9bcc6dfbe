import ConvoyTesting

/// The email and password `login` uses, from flags, standard input or a prompt.
struct Credentials: Sendable {
  /// The simulator's demo user, used with `--simulate` when no credentials were given.
  static let demoEmail = SimulatedPlacesAPI.users[0].email

  var email: String
  var password: String

  /// Finds the credentials without ever putting the password on the command line:
  /// - `--simulate` and neither `--email` nor `--password-stdin`: the simulator's demo user, so
  ///   the README's command works with no terminal and no input;
  /// - email: `--email`, else asked for on a terminal;
  /// - password: `--password-stdin`, else asked for without echo on a terminal.
  ///
  /// - Throws: ``UsageError/missingCredentials(_:)`` when something is missing and there is no
  ///   terminal to ask on.
  static func resolve(_ context: CommandContext) throws(UsageError) -> Credentials {
    let arguments = context.arguments
    let readsStandardInput = arguments.flag("password-stdin")
    if context.options.scenario != nil, arguments.value("email") == nil, !readsStandardInput {
      let demo = SimulatedPlacesAPI.users[0]
      context.output.note(
        "Logging in to the simulated API as its demo user \(demo.email) "
          + "(use --email to choose another).")
      return Credentials(email: demo.email, password: demo.password)
    }
    let email: String
    if let given = arguments.value("email") {
      email = given
    } else {
      email = try askForEmail()
    }
    let password: String
    if readsStandardInput {
      password = try passwordFromStandardInput()
    } else {
      password = try askForPassword(interruption: context.interruption)
    }
    return Credentials(email: email, password: password)
  }

  private static func askForEmail() throws(UsageError) -> String {
    guard Terminal.inputIsTerminal else {
      throw .missingCredentials("No email given: pass --email EMAIL.")
    }
    guard let email = Terminal.prompt("Email: "), !email.isEmpty else {
      throw .missingCredentials("No email given.")
    }
    return email
  }

  private static func passwordFromStandardInput() throws(UsageError) -> String {
    guard let password = Terminal.readInputLine(), !password.isEmpty else {
      throw .missingCredentials("--password-stdin was given but standard input held no password.")
    }
    return password
  }

  private static func askForPassword(interruption: Interruption) throws(UsageError) -> String {
    guard Terminal.inputIsTerminal else {
      throw .missingCredentials(
        "No password given and no terminal to ask on: pass --password-stdin and send the "
          + "password on standard input.")
    }
    guard let password = Terminal.promptSecret("Password: ", interruption: interruption),
      !password.isEmpty
    else {
      throw .missingCredentials("No password given.")
    }
    return password
  }
}
