import Convoy
import Foundation
import Testing

/// Downloads behave the same on every transport: the file appears whole or not at all, and an
/// interrupted download resumes with a range.
@Suite("Download conformance", .timeLimit(.minutes(2)), .needs(.httpbin))
struct DownloadConformanceTests {
  @Test(arguments: TransportUnderTest.allCases)
  func downloadsTheWholeBodyToTheDestination(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("range.bin")
    let updates = Updates()
    let file = try await streamingConnection(kind).download(
      StreamCall(path: "/range/102400?chunk_size=4096"), to: destination,
      options: StreamOptions(bufferSize: 16384)
    ) { updates.add($0) }
    #expect(file.byteCount == 102_400)
    #expect(file.resumedByteCount == 0)
    let bytes = try Data(contentsOf: destination)
    #expect(bytes.elementsEqual(rangeBytes(0..<102_400)), "the file differs from the body sent")
    #expect(folder.names == ["range.bin"], "no partial file or record is left behind")
    let seen = updates.all
    #expect(seen.last == TransferProgress(completedBytes: 102_400, totalBytes: 102_400))
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aLaterCallResumesAnInterruptedDownloadWithARange(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("range.bin")
    let connection = try streamingConnection(kind)
    // What an interrupted call leaves: the first 40,000 bytes and what it learnt of the file.
    try Data(rangeBytes(0..<40_000)).write(
      to: destination.appendingPathExtension("convoy-partial"))
    let record: [String: Any] = [
      "url": try connection.configuration.url(path: "/range/102400").absoluteString,
      "entityTag": "range102400", "totalBytes": 102_400,
    ]
    try JSONSerialization.data(withJSONObject: record).write(
      to: destination.appendingPathExtension("convoy-partial").appendingPathExtension("json"))
    let file = try await connection.download(
      StreamCall(path: "/range/102400"), to: destination)
    #expect(file.response.statusCode == 206)
    #expect(file.resumedByteCount == 40_000)
    #expect(file.byteCount == 102_400)
    let bytes = try Data(contentsOf: destination)
    #expect(bytes.elementsEqual(rangeBytes(0..<102_400)), "the resumed file differs")
    #expect(folder.names == ["range.bin"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aServerThatIgnoresTheRangeStartsTheFileOver(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("bytes.bin")
    let connection = try streamingConnection(kind)
    try Data(repeating: 0xEE, count: 500).write(
      to: destination.appendingPathExtension("convoy-partial"))
    let record: [String: Any] = [
      "url": try connection.configuration.url(path: "/bytes/2000").absoluteString,
      "lastModified": "Tue, 24 Nov 2026 07:00:00 GMT",
    ]
    try JSONSerialization.data(withJSONObject: record).write(
      to: destination.appendingPathExtension("convoy-partial").appendingPathExtension("json"))
    // httpbin's /bytes has no range support: it answers 200 with the whole body.
    let file = try await connection.download(StreamCall(path: "/bytes/2000"), to: destination)
    #expect(file.response.statusCode == 200)
    #expect(file.resumedByteCount == 0)
    #expect(try Data(contentsOf: destination).count == 2000)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anUnwritableDestinationFailsBeforeAnythingIsSent(_ kind: TransportUnderTest) async throws {
    let destination = URL(fileURLWithPath: "/nonexistent-convoy-folder/file.bin")
    let failure = await #expect(throws: FileTransferFailure.self) {
      _ = try await streamingConnection(kind).download(
        StreamCall(path: "/range/100"), to: destination)
    }
    #expect(failure?.kind == .destinationNotWritable)
    #expect(ErrorMessageProvider.category(of: failure!) == .fileNotSaved)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cancellingLeavesNothingAtTheDestination(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("slow.bin")
    let download = try streamingConnection(kind).startDownload(
      StreamCall(path: "/drip?duration=20&numbytes=20&delay=0"), to: destination)
    for await progress in download.progress where progress.completedBytes > 0 {
      download.cancel()
    }
    await #expect(throws: ServerConnectionError.cancelled) { _ = try await download.file }
    #expect(!FileManager.default.fileExists(atPath: destination.path))
    #expect(folder.names.contains("slow.bin.convoy-partial"))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anErrorStatusLeavesNoFile(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("missing.bin")
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await streamingConnection(kind).download(
        StreamCall(path: "/status/404"), to: destination)
    }
    #expect(error?.statusCode == 404)
    #expect(folder.names.isEmpty)
  }
}

/// The bytes httpbin's `/range/N` sends at `offsets`: "abc…z" repeated.
func rangeBytes(_ offsets: Range<Int>) -> [UInt8] {
  offsets.map { UInt8(ascii: "a") + UInt8($0 % 26) }
}

/// A folder of its own for one test, removed afterwards.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The names of the files in the folder, sorted.
  var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }
}

/// Progress updates collected from any thread.
final class Updates: @unchecked Sendable {
  private let lock = NSLock()
  private var updates: [TransferProgress] = []

  func add(_ progress: TransferProgress) {
    lock.withLock { updates.append(progress) }
  }

  var all: [TransferProgress] { lock.withLock { updates } }
}
