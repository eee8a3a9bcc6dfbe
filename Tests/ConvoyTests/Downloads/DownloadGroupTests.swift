import Convoy
import ConvoyTesting
import Foundation
import Testing

// Docs/Downloads.md shows a job made of a group of download operations; its code is compiled by
// ConvoySnippetTests. This runs the same shape against a stub, so the documented pattern also
// works: each child saves its own file, and the group hands them back in the children's order.
@Suite struct DownloadGroupTests {
  private struct AlbumJob: Job {
    var paths: [String]
    var folder: URL

    func makeOperation(on connection: ServerConnection) -> ResultOperation<[DownloadedFile]> {
      GroupOperation(
        paths.enumerated().map { index, path in
          connection.downloadOperation(
            for: RawStubCall(path: path), to: folder.appendingPathComponent("\(index).jpg"))
        })
    }
  }

  @Test func aGroupOfDownloadsSavesEveryFileInTheChildrensOrder() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-download-group-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport { request in
      .response(status: 200, headers: [:], body: Data((request.urlRequest.url?.path ?? "").utf8))
    }
    let files = try await stubConnection(transport).run(
      AlbumJob(paths: ["v2/places/1/photo", "v2/places/2/photo"], folder: folder))
    #expect(files.map(\.url.lastPathComponent) == ["0.jpg", "1.jpg"])
    #expect(try String(contentsOf: files[0].url, encoding: .utf8) == "/api/v2/places/1/photo")
    #expect(try String(contentsOf: files[1].url, encoding: .utf8) == "/api/v2/places/2/photo")
  }
}
