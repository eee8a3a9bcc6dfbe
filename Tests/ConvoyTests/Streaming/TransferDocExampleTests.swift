import Convoy
import ConvoyTesting
import Foundation
import Testing

// The samples of Docs/Streaming.md and Docs/Downloads.md, verbatim inside these namespaces, so the
// documented code keeps compiling; the tests run the ones that need no server of their own.

private enum StreamingDoc {
  struct FeedRequest: RequestDescribing {
    typealias Response = DataResponse
    var method: HTTPMethod { .get }
    var path: String { "v1/feed" }
    var authenticationRequirement: AuthenticationRequirement { .accessToken }
  }

  static func printFeed(from connection: ServerConnection) async throws {
    let stream = try await connection.stream(FeedRequest())
    print("status", stream.head.statusCode)
    for try await line in stream.body.lines {
      print(line)
    }
  }

  static func follow(_ connection: ServerConnection) async throws {
    for try await event in connection.events(FeedRequest()) where event.type == "update" {
      print(event.id ?? "-", event.data)
    }
  }
}

private enum DownloadsDoc {
  struct PhotoRequest: RequestDescribing {
    typealias Response = DataResponse
    var id: Int
    var method: HTTPMethod { .get }
    var path: String { "v2/places/\(id)/photo" }
  }

  static func savePhoto(_ id: Int, to destination: URL, with connection: ServerConnection)
    async throws
  {
    let file = try await connection.download(PhotoRequest(id: id), to: destination) { progress in
      print(progress)  // "1.5 MB of 40 MB"
    }
    print("saved \(file.byteCount) bytes at \(file.url.path)")
  }

  static func saveWithProgressBar(
    _ id: Int, to destination: URL, with connection: ServerConnection
  )
    async throws -> DownloadedFile
  {
    let download = connection.startDownload(PhotoRequest(id: id), to: destination)
    for await progress in download.progress {
      print(progress.fractionCompleted.map { "\(Int($0 * 100)) %" } ?? "\(progress)")
    }
    return try await download.file
  }

  struct UploadPhoto: RequestDescribing {
    typealias Response = EmptyResponse
    var file: URL
    var method: HTTPMethod { .put }
    var path: String { "v2/photos" }
    var body: RequestBody? { .file(file, contentType: "image/jpeg") }
  }

  static func upload(_ photo: URL, with connection: ServerConnection) async throws {
    _ = try await connection.execute(UploadPhoto(file: photo)) { progress in
      print("sent \(progress)")
    }
  }

  struct PhotoAlbumJob: Job {
    var ids: [Int]
    var folder: URL

    func makeOperation(on connection: ServerConnection) -> ResultOperation<[DownloadedFile]> {
      GroupOperation(
        ids.map { id in
          connection.downloadOperation(
            for: PhotoRequest(id: id), to: folder.appendingPathComponent("\(id).jpg"))
        } as [ResultOperation<DownloadedFile>])
    }
  }
}

@Suite struct TransferDocExampleTests {
  @Test func theDocumentedAlbumJobDownloadsEveryPhoto() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-doc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let transport = StubTransport { request in
      .response(status: 200, headers: [:], body: Data((request.urlRequest.url?.path ?? "").utf8))
    }
    let files = try await stubConnection(transport).run(
      DownloadsDoc.PhotoAlbumJob(ids: [1, 2], folder: folder))
    #expect(files.map(\.url.lastPathComponent) == ["1.jpg", "2.jpg"])
    #expect(
      try String(contentsOf: files[0].url, encoding: .utf8) == "/api/v2/places/1/photo")
  }
}
