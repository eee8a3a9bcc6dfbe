import Foundation
import Testing

@Suite("democli argument parsing")
struct ArgumentTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let usageErrors: [Case] = [
    Case(arguments: [], message: "No command given."),
    Case(arguments: ["fly"], message: "There is no command 'fly'."),
    Case(arguments: ["places", "--frobnicate"], message: "'places' has no option --frobnicate."),
    Case(arguments: ["--frobnicate"], message: "There is no option --frobnicate."),
    Case(arguments: ["places", "-x"], message: "'places' has no option -x."),
    Case(arguments: ["login", "--city", "Hamburg"], message: "'login' has no option --city."),
    Case(arguments: ["places", "--env"], message: "--env needs a value."),
    Case(arguments: ["places", "--env", "--verbose"], message: "--env needs a value."),
    Case(arguments: ["places", "--json=yes"], message: "--json takes no value."),
    Case(
      arguments: ["places", "--env=qa"],
      message: "'qa' is not a valid value for --env; expected one of local, staging, production."),
    Case(
      arguments: ["places", "--scenario", "sunny"],
      message: "'sunny' is not a valid value for --scenario"),
    Case(arguments: ["places", "extra"], message: "'places' does not take the argument 'extra'."),
    Case(arguments: ["place"], message: "'place' needs <id>."),
    Case(arguments: ["place", "1", "2"], message: "'place' does not take the argument '2'."),
    Case(
      arguments: ["place", "--simulate", "--", "-3"],
      message: "'-3' is not a valid value for <id>; expected a positive number."),
  ]

  @Test("usage errors exit 64 with a clear sentence", arguments: usageErrors)
  func usageError(_ example: Case) async throws {
    let result = try await DemoCLISandbox().run(example.arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(example.message), "stderr: \(result.stderr)")
    #expect(result.stderr.contains("--help' for usage."))
    #expect(result.stdout.isEmpty)
  }

  @Test func valuesMayFollowAnEqualsSignOrASpace() async throws {
    let sandbox = try DemoCLISandbox()
    for arguments in [
      ["whoami", "--env=production", "--json"], ["whoami", "--env", "production", "--json"],
    ] {
      let result = try await sandbox.run(arguments)
      #expect(result.status == 0)
      #expect(try result.jsonObject()["environment"] as? String == "production")
    }
  }

  @Test func commonOptionsMayComeBeforeTheCommand() async throws {
    let result = try await DemoCLISandbox().run("--env", "local", "--json", "whoami")
    #expect(result.status == 0)
    #expect(try result.jsonObject()["environment"] as? String == "local")
  }

  @Test func aDoubleDashEndsTheOptions() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let result = try await sandbox.run("place", "--simulate", "--", "3")
    #expect(result.status == 0)
    #expect(result.stdout.contains("Market Hall"))
  }

  @Test func usageErrorsWithJSONAlsoPrintAnErrorObject() async throws {
    let result = try await DemoCLISandbox().run("places", "--json", "--bogus")
    #expect(result.status == 64)
    let error = try #require(try result.jsonObject()["error"] as? [String: Any])
    #expect(error["category"] as? String == "usage")
    #expect(error["exitCode"] as? Int == 64)
  }
}
