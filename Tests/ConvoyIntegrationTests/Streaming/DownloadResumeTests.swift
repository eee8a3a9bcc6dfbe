import Convoy
import Foundation
import Testing

/// Interrupted downloads resume against a real nginx, which honours `Range` and `If-Range`: the
/// same file continues where it stopped, a changed one comes whole.
@Suite("Download resume against nginx", .timeLimit(.minutes(2)), .needs(.nginx))
struct DownloadResumeTests {
  /// A GET of a file on the shared nginx.
  private struct FileCall: RequestDescribing {
    typealias Response = DataResponse
    var path: String
    var method: HTTPMethod { .get }
  }

  private func connection(_ kind: TransportUnderTest) throws -> ServerConnection {
    ServerConnection(
      configuration: .local(port: Nginx.shared.port), transport: try kind.make())
  }

  /// Starts a download of `path` and cancels it once more than `bytes` are on disk.
  ///
  /// The cancel comes from the progress handler, which runs right after each write: a reader of
  /// `startDownload`'s progress sequence is a task of its own, and on a loaded machine under
  /// ThreadSanitizer it was scheduled only after all 3 MB had arrived (seen).
  private func interrupt(
    _ path: String, to destination: URL, after bytes: Int64, on connection: ServerConnection,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let task = Locked<Task<DownloadedFile, any Error>?>(nil)
    let cancelledAt = Locked<Int64?>(nil)
    let download = Task {
      try await connection.download(FileCall(path: path), to: destination) { progress in
        guard progress.completedBytes > bytes else { return }
        cancelledAt.withLock { $0 = $0 ?? progress.completedBytes }
        task.withLock { $0?.cancel() }
      }
    }
    task.withLock { $0 = download }
    // Anything but the cancellation would leave nothing to resume: say what it was.
    do {
      let file = try await download.value
      Issue.record(
        "the download ended whole (\(file.byteCount) bytes)", sourceLocation: sourceLocation)
    } catch ServerConnectionError.cancelled {
      #expect(cancelledAt.withLock { $0 } != nil, sourceLocation: sourceLocation)
    } catch {
      Issue.record("the interrupted download failed: \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anInterruptedDownloadResumesWhereItStopped(_ kind: TransportUnderTest) async throws {
    let name = "resume-\(kind.rawValue)-\(UUID().uuidString).bin"
    let source = try Nginx.shared.makeFile(named: name, byteCount: 3_000_000, seed: 7)
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("file.bin")
    let connection = try connection(kind)
    // The slow location sends 2 MB/s: cancelled after about half a second.
    await interrupt("/slow/\(name)", to: destination, after: 500_000, on: connection)
    #expect(!FileManager.default.fileExists(atPath: destination.path))
    let file = try await connection.download(FileCall(path: "/slow/\(name)"), to: destination)
    // nginx logs a request when it ends, so the order of the lines is not the order of the calls.
    let requests = try Nginx.shared.accessLog(for: "/slow/\(name)")
    let seen: Comment = "nginx saw \(requests)"
    #expect(file.response.statusCode == 206, seen)
    #expect(file.resumedByteCount > 500_000, seen)
    #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
    #expect(requests.count == 2, seen)
    let resumed = requests.first { $0.range != nil }
    #expect(resumed?.range == "bytes=\(file.resumedByteCount)-", seen)
    #expect(resumed?.ifRange?.hasPrefix("\"") == true, "the strong ETag validates the range")
    #expect(folder.names == ["file.bin"])
  }

  /// FoundationNetworking cannot pause a transfer, so a download whose disk falls behind the
  /// network used to end in `readerTooSlow` (issue #23, item 3); now what waits goes to a
  /// temporary file. Curl pauses instead, and must give the same file.
  @Test(arguments: TransportUnderTest.allCases)
  func aDownloadWhoseDiskFallsBehindIsNeverRefused(_ kind: TransportUnderTest) async throws {
    let name = "slow-disk-\(kind.rawValue)-\(UUID().uuidString).bin"
    let source = try Nginx.shared.makeFile(named: name, byteCount: 24_000_000, seed: 3)
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("file.bin")
    let pieces = Locked(0)
    // A 64 KiB buffer and a millisecond per piece: the reader falls megabytes behind loopback.
    let file = try await connection(kind).download(
      FileCall(path: "/files/\(name)"), to: destination,
      options: StreamOptions(bufferSize: 64 << 10)
    ) { _ in
      pieces.withLock { $0 += 1 }
      // Real time on purpose: only a reader slower than loopback makes the data pile up.
      usleep(1_000)
    }
    #expect(file.byteCount == 24_000_000)
    #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
    #expect(pieces.withLock { $0 } > 100)
    #expect(folder.names == ["file.bin"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aFileThatChangedMeanwhileIsDownloadedWhole(_ kind: TransportUnderTest) async throws {
    let name = "changed-\(kind.rawValue)-\(UUID().uuidString).bin"
    try Nginx.shared.makeFile(named: name, byteCount: 3_000_000, seed: 1)
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("file.bin")
    let connection = try connection(kind)
    await interrupt("/slow/\(name)", to: destination, after: 300_000, on: connection)
    // A new version, of another size (so another ETag), replaces the file on the server.
    let source = try Nginx.shared.makeFile(named: name, byteCount: 2_000_000, seed: 2)
    let file = try await connection.download(FileCall(path: "/slow/\(name)"), to: destination)
    #expect(file.response.statusCode == 200)
    #expect(file.resumedByteCount == 0)
    #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
    let requests = try Nginx.shared.accessLog(for: "/slow/\(name)")
    let asked = try #require(
      requests.first { $0.range != nil },
      "the range was asked for, with the old validator; nginx saw \(requests)")
    #expect(asked.status == 200, "nginx saw that If-Range no longer matches")
  }
}
