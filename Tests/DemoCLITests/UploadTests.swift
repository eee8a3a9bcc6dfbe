import Convoy
import ConvoyTestSupport
import Foundation
import Testing

@Suite("democli upload")
struct UploadTests {
  static func hex(_ data: Data) -> String {
    SHA256.hash(data).map { String(format: "%02x", $0) }.joined()
  }

  @Test func aFileArrivesByteForByte() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let file = sandbox.directory.appendingPathComponent("notes.bin")
    let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    try bytes.write(to: file)
    let result = try await sandbox.run("upload", file.path, "--simulate", "--json")
    #expect(result.status == 0)
    let json = try result.jsonObject()
    #expect(json["bytesSent"] as? Int == bytes.count)
    #expect(json["bytes"] as? Int == bytes.count)
    #expect(json["sha256"] as? String == Self.hex(bytes))
  }

  @Test func standardInputIsStreamedToo() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let text = String(repeating: "a line of a log\n", count: 5_000)
    let result = try await sandbox.run("upload", "-", "--simulate", standardInput: text)
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix("Uploaded standard input (80 KB); the server received 80000 bytes"))
    #expect(result.stdout.contains(Self.hex(Data(text.utf8))))
  }

  /// Standard input can be read only once: when the token must be renewed after the server
  /// refused it, the upload cannot be sent again, and democli says so.
  @Test func standardInputIsNotSentTwiceAfterATokenRenewal() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let result = try await sandbox.run(
      "upload", "-", "--simulate", "--scenario", "token-expired", standardInput: "once")
    #expect(result.status == 75)
    #expect(result.stderr.contains("it can be sent only once"))
  }

  /// Each slow answer takes 1.5 s after the whole body was read, so the bar stands at 100%.
  @Test func aTerminalShowsAProgressBar() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let file = sandbox.directory.appendingPathComponent("notes.bin")
    try Data(count: 2_000_000).write(to: file)
    let terminal = try PseudoTerminal()
    let running = try sandbox.start(
      ["upload", file.path, "--simulate", "--scenario", "slow"], terminal: terminal)
    #expect(await terminal.read(until: "Uploading \(file.path) [####################] 100%"))
    let result = await running.result()
    #expect(result.status == 0)
    #expect(await terminal.read(until: "Uploaded \(file.path) (2 MB)"))
  }

  /// Standard input on a terminal stays open until Ctrl-D: Ctrl-C stops the upload half-sent,
  /// and nothing is reported as uploaded.
  @Test func ctrlCStopsAnUploadOfStandardInput() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let terminal = try PseudoTerminal()
    let running = try sandbox.start(["upload", "-", "--simulate"], terminal: terminal)
    terminal.type("the first line of a log that is still being written\n")
    // The bar counts what was read so far (the total is unknown).
    #expect(await terminal.read(until: "Uploading standard input 52 bytes"))
    running.interrupt()
    let result = await running.result()
    #expect(result.status == 130)
    #expect(!terminal.transcript.contains("Uploaded"))
  }

  @Test func aMissingFileIsAUsageError() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("upload", "/nonexistent/notes.txt", "--simulate")
    #expect(result.status == 64)
    #expect(result.stderr.contains("a readable file, or -"))
  }
}
