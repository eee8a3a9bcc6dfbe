import Foundation
import Testing

@Suite("democli login")
struct LoginTests {
  @Test func passwordFromStandardInput() async throws {
    let sandbox = try DemoCLISandbox()
    let login = try await sandbox.run(
      "login", "--simulate", "--email", "ada@convoy.example", "--password-stdin",
      standardInput: "analytical-engine\n")
    #expect(login.status == 0, "stderr: \(login.stderr)")
    #expect(login.stderr.isEmpty)
    let whoami = try await sandbox.run("whoami", "--simulate", "--json")
    #expect(try whoami.jsonObject()["user"] as? String == "ada@convoy.example")
  }

  @Test func aWrongPasswordIsTheServersSentenceAndExit77() async throws {
    let sandbox = try DemoCLISandbox()
    let login = try await sandbox.run(
      "login", "--simulate", "--email=ada@convoy.example", "--password-stdin",
      standardInput: "wrong\n")
    #expect(login.status == 77)
    #expect(login.stderr.hasPrefix("Wrong email or password.\n"))
    #expect(!login.stderr.contains("Log in with"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.sessionFile().path))
  }

  @Test func withoutATerminalAPasswordMustComeFromStandardInput() async throws {
    let sandbox = try DemoCLISandbox()
    let login = try await sandbox.run("login", "--simulate", "--email", "ada@convoy.example")
    #expect(login.status == 64)
    #expect(login.stderr.contains("pass --password-stdin"))
    let noEmail = try await sandbox.run("login", "--env", "local")
    #expect(noEmail.status == 64)
    #expect(noEmail.stderr.contains("No email given: pass --email EMAIL."))
    let emptyInput = try await sandbox.run(
      "login", "--simulate", "--email", "ada@convoy.example", "--password-stdin",
      standardInput: "")
    #expect(emptyInput.status == 64)
    #expect(emptyInput.stderr.contains("standard input held no password"))
  }

  @Test func anUnreachableRealServerExits69() async throws {
    let sandbox = try DemoCLISandbox()
    // Port 9 (discard) on loopback: nothing listens, so the connection is refused at once.
    try sandbox.writeConfig(#"{"environments": {"dead": "http://127.0.0.1:9/api/"}}"#)
    let login = try await sandbox.run(
      "login", "--env", "dead", "--email", "a@b.example", "--password-stdin",
      standardInput: "secret\n")
    #expect(login.status == 69)
    #expect(login.stderr.hasPrefix("The server can't be reached right now."))
  }
}
