import Convoy
import ConvoyTesting
import Foundation

/// `democli whoami`: the environment and its saved session, read locally; never the token.
enum WhoamiCommand: Command {
  static let spec = CommandSpec(
    name: "whoami", summary: "show the environment and whether a session is saved for it",
    discussion: """
      Reads the saved session only; nothing is sent. Exits 0 whether or not you are logged in
      (see "loggedIn" with --json); a saved session that cannot be read exits 77.
      """)

  static func run(_ context: CommandContext) async throws {
    let environment = try context.environment()
    let store = try context.sessionStore()
    let session = try store.loadSession()
    let token = session?.accessToken
    let now = Date()
    // The simulator's tokens say whose they are; a real server's tokens are opaque to democli.
    let user = token.flatMap { SimulatedToken(verifying: $0.value)?.subject }
    var lines = [
      "Environment:  \(environment.name)\(context.simulationSuffix)",
      "URL:          \(environment.baseURL.absoluteString)",
      "Logged in:    \(session == nil ? "no" : "yes")",
    ]
    if let user { lines.append("User:         \(user)") }
    if let token {
      lines.append("Token:        \(expiryText(token, now: now))")
    }
    lines.append("Session file: \(store.fileURL.path)")
    context.output.result(
      human: lines.joined(separator: "\n"),
      json: [
        "environment": environment.name, "url": environment.baseURL.absoluteString,
        "simulated": context.options.scenario != nil, "loggedIn": session != nil,
        "user": Output.nullable(user),
        "accessTokenExpiresAt": Output.nullable(token?.expiresAt.map(Output.timestamp)),
        "accessTokenExpired": Output.nullable(token?.expiresAt.map { $0 <= now }),
        "renewable": token?.refreshToken != nil, "sessionFile": store.fileURL.path,
      ])
  }

  private static func expiryText(_ token: AccessToken, now: Date) -> String {
    let renewal = token.refreshToken == nil ? "" : "; renewed automatically when needed"
    guard let expiresAt = token.expiresAt else { return "no expiry given\(renewal)" }
    let verb = expiresAt <= now ? "expired" : "expires"
    return "\(verb) \(Output.timestamp(expiresAt))\(renewal)"
  }
}
