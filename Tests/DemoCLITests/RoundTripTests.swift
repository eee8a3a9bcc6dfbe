import Foundation
import Testing

/// login → places → whoami → logout as separate processes, per scenario of the simulated API:
/// the session travels between processes only through the session file.
@Suite("democli round trip per scenario")
struct RoundTripTests {
  struct Expectation: Sendable, CustomTestStringConvertible {
    var scenario: String
    var loginStatus: Int32 = 0
    var loginMessage: String?
    var placesStatus: Int32 = 0
    var placesMessage: String?
    /// Whether a session is saved after `places`.
    var loggedInAfterPlaces = true
    var testDescription: String { scenario }
  }

  static let expectations: [Expectation] = [
    Expectation(scenario: "happy"),
    Expectation(scenario: "token-expired"),
    Expectation(
      scenario: "refresh-revoked", placesStatus: 77,
      placesMessage: "Your session has expired. Please log in again.", loggedInAfterPlaces: false),
    Expectation(
      scenario: "server-error", placesStatus: 69,
      placesMessage: "The places service is unavailable. Try again later."),
    Expectation(scenario: "slow"),
    Expectation(
      scenario: "offline", loginStatus: 69,
      loginMessage: "You appear to be offline. Check your connection and try again.",
      placesStatus: 77, placesMessage: "You need to log in to do that.",
      loggedInAfterPlaces: false),
    Expectation(
      scenario: "bad-json", placesStatus: 76,
      placesMessage:
        "The server sent an answer this app doesn't understand. Try updating the app."),
  ]

  @Test("login, places, whoami, logout", arguments: expectations)
  func roundTrip(_ expected: Expectation) async throws {
    let sandbox = try DemoCLISandbox()
    let common = ["--env", "staging", "--simulate", "--scenario", expected.scenario]

    let login = try await sandbox.run(["login"] + common)
    #expect(login.status == expected.loginStatus, "stderr: \(login.stderr)")
    if let message = expected.loginMessage { #expect(login.stderr.contains(message)) }
    #expect(
      FileManager.default.fileExists(atPath: sandbox.sessionFile().path)
        == (expected.loginStatus == 0))

    let places = try await sandbox.run(["places"] + common)
    #expect(places.status == expected.placesStatus, "stderr: \(places.stderr)")
    if let message = expected.placesMessage {
      #expect(places.stderr.hasPrefix(message + "\n"), "stderr: \(places.stderr)")
      #expect(places.stdout.isEmpty)
    } else {
      #expect(places.stdout.split(separator: "\n").count == 8)
      #expect(places.stdout.contains("Harbour Promenade"))
    }
    if expected.placesStatus == 77 {
      #expect(places.stderr.contains("Log in with: democli login --env staging --simulate"))
    }

    let whoami = try await sandbox.run(["whoami", "--json"] + common)
    #expect(whoami.status == 0)
    #expect(try whoami.jsonObject()["loggedIn"] as? Bool == expected.loggedInAfterPlaces)

    let logout = try await sandbox.run(["logout"] + common)
    #expect(logout.status == 0)
    #expect(!FileManager.default.fileExists(atPath: sandbox.sessionFile().path))
    let afterLogout = try await sandbox.run(["places"] + common)
    #expect(afterLogout.status == 77)
    #expect(afterLogout.stderr.hasPrefix("You need to log in to do that.\n"))
  }

  @Test func aSavedSessionMeetsAnOfflineNetwork() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let places = try await sandbox.run("places", "--scenario", "offline")
    #expect(places.status == 69)
    #expect(places.stderr.hasPrefix("You appear to be offline."))
  }

  @Test func onePlaceByIdAndAMissingOne() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let place = try await sandbox.run("place", "3", "--simulate")
    #expect(place.status == 0)
    #expect(place.stdout.hasPrefix("3  Market Hall\nCity:     Rotterdam"))
    let missing = try await sandbox.run("place", "99", "--simulate")
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("There is no place with id 99."))
  }

  /// The README's first command is the one CI runs, and it works with no terminal and no input.
  @Test func theReadmeCommandLogsInWithNoTerminalAndNoInput() async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
    let prefix = "swift run democli "
    let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix(prefix) })
    let command = String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
    // CI may set environment variables in front (a throwaway state directory), nothing else.
    #expect(
      ci.split(separator: "\n").contains { line in
        line == command || (line.hasSuffix(" " + command) && line.first?.isUppercase == true)
      })

    let sandbox = try DemoCLISandbox()
    let arguments = command.dropFirst(prefix.count).split(separator: " ").map(String.init)
    #expect(arguments == ["login", "--env", "staging", "--simulate"])
    let result = try await sandbox.run(arguments)
    #expect(result.status == 0)
    #expect(result.stderr.contains("demo user demo@convoy.example"))
    #expect(result.stdout.hasPrefix("Logged in to staging (simulated) as demo@convoy.example."))
    #expect(try await sandbox.run("places", "--env", "staging", "--simulate").status == 0)
  }
}
