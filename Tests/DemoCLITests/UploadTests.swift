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

  @Test func aMissingFileIsAUsageError() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("upload", "/nonexistent/notes.txt", "--simulate")
    #expect(result.status == 64)
    #expect(result.stderr.contains("a readable file, or -"))
  }
}
