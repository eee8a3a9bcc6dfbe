import Foundation
import Testing

@Suite("democli --help")
struct HelpTests {
  static let commands = [
    "login", "places", "place", "download", "watch", "live", "whoami", "logout", "environments",
    "help",
  ]

  @Test("every command explains itself on standard output", arguments: commands)
  func everyCommandHasHelp(command: String) async throws {
    let sandbox = try DemoCLISandbox()
    for flag in ["--help", "-h"] {
      let result = try await sandbox.run(command, flag)
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("Usage: democli \(command)"))
      #expect(result.stdout.contains("--simulate"))
      #expect(result.stderr.isEmpty)
    }
  }

  @Test func helpNamesEveryCommandScenarioAndExitCode() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("--help")
    #expect(result.status == 0)
    for command in Self.commands { #expect(result.stdout.contains("  \(command) ")) }
    for scenario in ["happy", "token-expired", "refresh-revoked", "server-error", "slow"] {
      #expect(result.stdout.contains(scenario))
    }
    for code in ["64", "69", "75", "76", "77", "78", "130"] {
      #expect(result.stdout.contains("  \(code) "))
    }
    #expect(try await sandbox.run("help").stdout == result.stdout)
  }

  @Test func helpForOneCommandIsTheCommandsHelp() async throws {
    let sandbox = try DemoCLISandbox()
    let viaHelp = try await sandbox.run("help", "login")
    let viaFlag = try await sandbox.run("login", "--help")
    #expect(viaHelp.status == 0)
    #expect(viaHelp.stdout == viaFlag.stdout)
    #expect(viaFlag.stdout.contains("--password-stdin"))
  }

  @Test func helpWinsOverMissingArguments() async throws {
    let result = try await DemoCLISandbox().run("place", "--help")
    #expect(result.status == 0)
    #expect(result.stdout.contains("<id>"))
  }
}
