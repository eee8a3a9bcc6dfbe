import Convoy
import Foundation

/// `democli login`: the demo API's two-step login, or on an environment that describes a
/// standard OAuth2 server the password grant or (`--device`) the device authorization grant;
/// then the session is saved.
enum LoginCommand: Command {
  static let spec = CommandSpec(
    name: "login", summary: "log in and save the session for the environment",
    options: [
      .value("email", "EMAIL", "the account's email (asked for on a terminal when missing)"),
      .flag("password-stdin", "read the password from the first line of standard input"),
      .flag("device", "log in on another device with a code (OAuth2 environments only)"),
    ],
    discussion: """
      Without --password-stdin the password is asked for, without echo, when standard input is a
      terminal; otherwise democli stops with a usage error. With --simulate and neither --email
      nor --password-stdin, democli logs in as the simulator's demo user (\(Credentials.demoEmail)).

      With --device (an environment whose config entry describes an OAuth2 server), democli
      prints a code and a page on standard error, then waits while you approve it there;
      Ctrl-C stops waiting.

      Examples:
        democli login --env staging --simulate
        democli login --env qa --email ada@convoy.example --password-stdin < password.txt
        democli login --env id --device
      """)

  static func run(_ context: CommandContext) async throws {
    let environment = try context.environment()
    if context.arguments.flag("device") {
      try await logInWithDevice(context, environment: environment)
      return
    }
    let credentials = try Credentials.resolve(context)
    let connection = try context.connection(restoringSession: false)
    let session = try await context.withProgress("Logging in to \(environment.name)") {
      progress in
      try await LoginFlow.logIn(
        email: credentials.email, password: credentials.password, on: connection,
        standard: context.standardClient != nil, runner: context.runner, progress: progress)
    }
    try connection.login(session: session)
    try report(session, as: credentials.email, context: context, environment: environment)
  }

  private static func logInWithDevice(
    _ context: CommandContext, environment: Environments.Entry
  ) async throws {
    guard context.standardClient != nil else {
      throw UsageError.invalidValue(
        option: "--env", value: environment.name,
        expected: "an environment whose config entry describes an OAuth2 server, for --device")
    }
    let connection = try context.connection(restoringSession: false)
    let output = context.output
    let session = try await context.withProgress("Waiting for approval") { progress in
      try await LoginFlow.run(
        Login.deviceCode { authorization in
          let page = authorization.verificationURIComplete ?? authorization.verificationURI
          // Clears a progress line already drawn, so the code stands on a line of its own.
          output.note(
            (Terminal.errorIsTerminal ? "\r\u{1B}[K" : "")
              + "To log in, open \(page.absoluteString) and enter the code "
              + "\(authorization.userCode).")
        }, on: connection, runner: context.runner, progress: progress)
    }
    try connection.login(session: session)
    try report(session, as: nil, context: context, environment: environment)
  }

  private static func report(
    _ session: Session, as email: String?, context: CommandContext,
    environment: Environments.Entry
  ) throws {
    let store = try context.sessionStore()
    let expiry = session.accessToken.expiresAt.map(Output.timestamp)
    let who = email.map { " as \($0)" } ?? ""
    context.output.result(
      human: "Logged in to \(environment.name)\(context.simulationSuffix)\(who)."
        + " Session saved to \(store.fileURL.path).",
      json: [
        "environment": environment.name, "simulated": context.options.scenario != nil,
        "email": Output.nullable(email), "loggedIn": true, "sessionFile": store.fileURL.path,
        "accessTokenExpiresAt": Output.nullable(expiry),
      ])
  }
}
