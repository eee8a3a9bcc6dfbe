import Convoy
import Foundation

/// `democli login`: client secret, then the password grant, then the session is saved.
enum LoginCommand: Command {
  static let spec = CommandSpec(
    name: "login", summary: "log in and save the session for the environment",
    options: [
      .value("email", "EMAIL", "the account's email (asked for on a terminal when missing)"),
      .flag("password-stdin", "read the password from the first line of standard input"),
    ],
    discussion: """
      Without --password-stdin the password is asked for, without echo, when standard input is a
      terminal; otherwise democli stops with a usage error. With --simulate and neither --email
      nor --password-stdin, democli logs in as the simulator's demo user (\(Credentials.demoEmail)).

      Examples:
        democli login --env staging --simulate
        democli login --env qa --email ada@convoy.example --password-stdin < password.txt
      """)

  static func run(_ context: CommandContext) async throws {
    let credentials = try Credentials.resolve(context)
    let environment = try context.environment()
    let connection = try context.connection(restoringSession: false)
    let session = try await context.withProgress("Logging in to \(environment.name)") {
      progress in
      try await LoginFlow.logIn(
        email: credentials.email, password: credentials.password, on: connection,
        runner: context.runner, progress: progress)
    }
    try connection.login(session: session)
    let store = try context.sessionStore()
    let expiry = session.accessToken.expiresAt.map(Output.timestamp)
    context.output.result(
      human: "Logged in to \(environment.name)\(context.simulationSuffix) as \(credentials.email)."
        + " Session saved to \(store.fileURL.path).",
      json: [
        "environment": environment.name, "simulated": context.options.scenario != nil,
        "email": credentials.email, "loggedIn": true, "sessionFile": store.fileURL.path,
        "accessTokenExpiresAt": Output.nullable(expiry),
      ])
  }
}
