import Convoy
import Foundation
import Testing

/// Interrupted downloads resume against a real nginx, which honours `Range` and `If-Range`: the
/// same file continues where it stopped, a changed one comes whole.
@Suite("Download resume against nginx", .timeLimit(.minutes(2)))
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
  private func interrupt(
    _ path: String, to destination: URL, after bytes: Int64, on connection: ServerConnection
  ) async {
    let download = connection.startDownload(FileCall(path: path), to: destination)
    for await progress in download.progress where progress.completedBytes > bytes {
      download.cancel()
    }
    _ = try? await download.file
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
    #expect(file.response.statusCode == 206)
    #expect(file.resumedByteCount > 500_000)
    #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
    let requests = try Nginx.shared.accessLog(for: "/slow/\(name)")
    #expect(requests.count == 2)
    #expect(requests.last?.range == "bytes=\(file.resumedByteCount)-")
    #expect(requests.last?.ifRange?.hasPrefix("\"") == true, "the strong ETag validates the range")
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
    let last = try #require(try Nginx.shared.accessLog(for: "/slow/\(name)").last)
    #expect(last.range != nil, "the range was asked for, with the old validator")
    #expect(last.status == 200, "nginx saw that If-Range no longer matches")
  }
}
