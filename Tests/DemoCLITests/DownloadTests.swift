import ConvoyTestSupport
import Foundation
import Testing

@Suite("democli download")
struct DownloadTests {
  @Test func aDownloadSavesThePlacesPhotoByteForByte() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let file = sandbox.directory.appendingPathComponent("photo.bin")
    let result = try await sandbox.run(
      "download", "3", "--output", file.path, "--simulate", "--rate", "0")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Saved the photo of place 3 to \(file.path)"))
    // Piped, so no progress bar.
    #expect(!result.stderr.contains("\r"))
    #expect(try SimulatedPhotoBytes.matches(file, placeID: 3))
    #expect(!FileManager.default.fileExists(atPath: file.path + ".convoy-partial"))
    #expect(!FileManager.default.fileExists(atPath: file.path + ".convoy-partial.json"))
  }

  @Test func anInterruptedDownloadLeavesNoFileAndTheNextRunResumesIt() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let file = sandbox.directory.appendingPathComponent("photo.bin")
    let partial = file.path + ".convoy-partial"
    // The default pace (10 MB/s) leaves seconds to interrupt it.
    let running = try sandbox.start(["download", "5", "--output", file.path, "--simulate"])
    _ = try await poll(within: .seconds(15)) { Self.size(of: partial) >= 1_000_000 ? true : nil }
    running.interrupt()
    let interrupted = await running.result()
    #expect(interrupted.status == 130)
    #expect(interrupted.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let kept = Self.size(of: partial)
    #expect(kept >= 1_000_000 && kept < SimulatedPhotoBytes.size(placeID: 5))

    let resumed = try await sandbox.run(
      "download", "5", "--output", file.path, "--simulate", "--rate", "0", "--json")
    #expect(resumed.status == 0)
    #expect(resumed.stderr.contains("Resuming at "))
    let json = try resumed.jsonObject()
    #expect((json["resumedBytes"] as? Int).map { $0 > 0 && Int64($0) <= kept } == true)
    #expect((json["bytes"] as? Int).map(Int64.init) == SimulatedPhotoBytes.size(placeID: 5))
    #expect(try SimulatedPhotoBytes.matches(file, placeID: 5))
    #expect(!FileManager.default.fileExists(atPath: partial))
  }

  @Test func aTerminalShowsAProgressBar() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let terminal = try PseudoTerminal()
    let file = sandbox.directory.appendingPathComponent("photo.bin")
    let running = try sandbox.start(
      ["download", "1", "--output", file.path, "--simulate", "--rate", "20"], terminal: terminal)
    #expect(await terminal.read(until: "Downloading photo 1 [#"))
    #expect(await terminal.read(until: "% "))
    let result = await running.result()
    #expect(result.status == 0)
    #expect(await terminal.read(until: "Saved the photo of place 1"))
  }

  @Test func withoutAnOutputFileItIsAUsageError() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("download", "3", "--simulate")
    #expect(result.status == 64)
    #expect(result.stderr.contains("--output"))
  }

  @Test func anUnknownPlaceIsNotFoundAndLeavesNoFile() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let file = sandbox.directory.appendingPathComponent("photo.bin")
    let result = try await sandbox.run("download", "99", "--output", file.path, "--simulate")
    #expect(result.status == 66)
    #expect(result.stderr.contains("There is no place with id 99."))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  private static func size(of path: String) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
      ?? 0
  }
}
