import Foundation
import Testing

/// democli on a (pseudo-)terminal: prompts, echo and the progress line.
@Suite("democli on a terminal")
struct TerminalTests {
  @Test func thePasswordIsAskedWithoutEchoAndProgressShows() async throws {
    let sandbox = try DemoCLISandbox()
    let terminal = try PseudoTerminal()
    let running = try sandbox.start(
      ["login", "--scenario", "slow", "--email", "ada@convoy.example"], terminal: terminal)
    #expect(await terminal.read(until: "Password: "))
    terminal.type("analytical-engine\n")
    // Each slow answer takes 1.5 s, so the line shows the first step before the second ends.
    #expect(await terminal.read(until: "Logging in to staging (1/2)"))
    let result = await running.result()
    #expect(await terminal.read(until: "Logged in to staging"))
    #expect(result.status == 0)
    #expect(!terminal.transcript.contains("analytical-engine"))
  }

  @Test func progressStaysOffStandardErrorWhenItIsNotATerminal() async throws {
    let sandbox = try DemoCLISandbox()
    let login = try await sandbox.run("login", "--scenario", "slow")
    #expect(login.status == 0)
    #expect(!login.stderr.contains("\r"))
    #expect(!login.stderr.contains("Logging in to staging ("))
  }
}
