import Foundation
import Testing

@Suite("democli session file")
struct SessionFileTests {
  @Test func loginSavesAnOwnerOnlyFileAndLogoutRemovesIt() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--env", "staging", "--simulate").status == 0)
    let file = sandbox.sessionFile("staging")
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let directory = try FileManager.default.attributesOfItem(
      atPath: file.deletingLastPathComponent().path)
    #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    #expect(!FileManager.default.fileExists(atPath: sandbox.sessionFile("production").path))

    let logout = try await sandbox.run("logout", "--env", "staging")
    #expect(logout.status == 0)
    #expect(logout.stdout.contains("Logged out of staging"))
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let again = try await sandbox.run("logout", "--env", "staging")
    #expect(again.status == 0)
    #expect(again.stdout.contains("nothing to remove"))
  }

  @Test func sessionsAreKeptPerEnvironment() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--env", "production", "--simulate").status == 0)
    let staging = try await sandbox.run("places", "--env", "staging", "--simulate")
    #expect(staging.status == 77)
    #expect(try await sandbox.run("places", "--env", "production", "--simulate").status == 0)
  }

  @Test func noTokenOrSecretIsEverPrinted() async throws {
    let sandbox = try DemoCLISandbox()
    var outputs = try await sandbox.run("login", "--simulate", "--verbose")
    let saved =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: sandbox.sessionFile())) as? [String: Any]
    let token = try #require(saved?["accessToken"] as? [String: Any])
    let secrets = [
      try #require(token["value"] as? String), try #require(token["refreshToken"] as? String),
      "demo-password", "simulated-client-secret",
    ]
    for arguments in [
      ["places", "--scenario", "token-expired", "--verbose"], ["whoami", "--verbose", "--json"],
      ["whoami", "--simulate"], ["place", "1", "--simulate", "--verbose", "--json"],
      [
        "download", "2", "--output", sandbox.directory.appendingPathComponent("photo.bin").path,
        "--simulate", "--rate", "0", "--verbose",
      ],
    ] {
      let result = try await sandbox.run(arguments)
      outputs.stdout += result.stdout
      outputs.stderr += result.stderr
    }
    for secret in secrets {
      #expect(!outputs.stdout.contains(secret))
      #expect(!outputs.stderr.contains(secret))
    }
  }

  @Test func anUnreadableSavedSessionAsksToLogInAgain() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    try Data("not json".utf8).write(to: sandbox.sessionFile())
    let places = try await sandbox.run("places", "--simulate")
    #expect(places.status == 77)
    #expect(places.stderr.hasPrefix("Your saved login couldn't be read. Please log in again.\n"))
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    #expect(try await sandbox.run("places", "--simulate").status == 0)
  }
}
