import Convoy
import Foundation

/// `democli logout`: forgets the environment's session and removes its file.
enum LogoutCommand: Command {
  static let spec = CommandSpec(
    name: "logout", summary: "remove the session saved for the environment",
    discussion: """
      Nothing is sent to the server. Logging out when not logged in is not an error.
      """)

  static func run(_ context: CommandContext) async throws {
    let environment = try context.environment()
    let store = try context.sessionStore()
    let wasLoggedIn = FileManager.default.fileExists(atPath: store.fileURL.path)
    try await context.connection(restoringSession: false).logout()
    context.output.result(
      human: wasLoggedIn
        ? "Logged out of \(environment.name); removed \(store.fileURL.path)."
        : "Not logged in to \(environment.name); nothing to remove.",
      json: [
        "environment": environment.name, "loggedIn": false, "removedSession": wasLoggedIn,
        "sessionFile": store.fileURL.path,
      ])
  }
}
