import Convoy
import Foundation

/// `democli logout`: revokes the session at an OAuth2 server that can, then forgets it and
/// removes its file.
enum LogoutCommand: Command {
  static let spec = CommandSpec(
    name: "logout", summary: "revoke and remove the session saved for the environment",
    discussion: """
      On an environment that describes an OAuth2 server with a revocation endpoint, the tokens
      are revoked there first (RFC 7009); the session file is removed even when that fails.
      The demo API has no revocation: nothing is sent. Logging out when not logged in is not an
      error.
      """)

  static func run(_ context: CommandContext) async throws {
    let environment = try context.environment()
    let store = try context.sessionStore()
    let wasLoggedIn = FileManager.default.fileExists(atPath: store.fileURL.path)
    // A saved session that cannot be read is still removed, just not revoked.
    let connection = try context.connection(restoringSession: false)
    _ = try? connection.restoreSession()
    let outcome = try await connection.logout()
    var revoked = false
    switch outcome {
    case .revoked: revoked = true
    case .notAttempted: break
    case .failed(let error):
      let reason = ErrorMessageProvider.standard.message(for: error)?.text ?? "\(error)"
      context.output.note("The server could not revoke the session: \(reason)")
    }
    let revocation = revoked ? " The server revoked the session." : ""
    context.output.result(
      human: wasLoggedIn
        ? "Logged out of \(environment.name); removed \(store.fileURL.path).\(revocation)"
        : "Not logged in to \(environment.name); nothing to remove.",
      json: [
        "environment": environment.name, "loggedIn": false, "removedSession": wasLoggedIn,
        "revoked": revoked, "sessionFile": store.fileURL.path,
      ])
  }
}
