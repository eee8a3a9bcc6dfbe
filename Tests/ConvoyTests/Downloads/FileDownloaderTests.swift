import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Resume rules of downloads, on scripted answers. A class, so that each test's folder is
/// removed when the test ends.
@Suite final class FileDownloaderTests {
  private let folder: URL
  private var destination: URL { folder.appendingPathComponent("file.bin") }

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-download-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  private var leftovers: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  private static let dropped = TransportFailure(kind: .networkConnectionLost, detail: "reset")

  @Test func aDroppedConnectionResumesWithRangeAndIfRange() async throws {
    let transport = ScriptedStreamingTransport([
      .init(
        status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "10"],
        pieces: [Data("hello".utf8)], failure: Self.dropped),
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 5-9/10"],
        pieces: [Data("world".utf8)], failure: nil),
    ])
    let file = try await stubConnection(transport).download(
      RawStubCall(path: "file"), to: destination)
    #expect(try String(contentsOf: destination, encoding: .utf8) == "helloworld")
    #expect(file.resumedByteCount == 5)
    #expect(file.byteCount == 10)
    let second = try #require(transport.requests.last?.urlRequest)
    #expect(second.value(forHTTPHeaderField: "Range") == "bytes=5-")
    #expect(second.value(forHTTPHeaderField: "If-Range") == "\"v1\"")
    #expect(leftovers == ["file.bin"])
  }

  @Test func aChangedFileIsDownloadedWholeAgain() async throws {
    let transport = ScriptedStreamingTransport([
      .init(
        status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "10"],
        pieces: [Data("hello".utf8)], failure: Self.dropped),
      // If-Range did not match: the server sends the new file whole.
      .init(
        status: 200, headers: ["ETag": "\"v2\"", "Content-Length": "10"],
        pieces: [Data("HELLOWORLD".utf8)], failure: nil),
    ])
    let file = try await stubConnection(transport).download(
      RawStubCall(path: "file"), to: destination)
    #expect(try String(contentsOf: destination, encoding: .utf8) == "HELLOWORLD")
    #expect(file.resumedByteCount == 0)
  }

  @Test func aWeakEntityTagIsNeverUsedForIfRange() async throws {
    let transport = ScriptedStreamingTransport([
      .init(
        status: 200, headers: ["ETag": "W/\"v1\"", "Content-Length": "10"],
        pieces: [Data("hello".utf8)], failure: Self.dropped),
      .init(
        status: 200, headers: ["ETag": "W/\"v1\"", "Content-Length": "10"],
        pieces: [Data("helloworld".utf8)], failure: nil),
    ])
    _ = try await stubConnection(transport).download(RawStubCall(path: "file"), to: destination)
    #expect(transport.requests.last?.urlRequest.value(forHTTPHeaderField: "Range") == nil)
    #expect(try String(contentsOf: destination, encoding: .utf8) == "helloworld")
  }

  @Test func aRangeThatDoesNotContinueTheFileIsRefused() async throws {
    let transport = ScriptedStreamingTransport([
      .init(
        status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "10"],
        pieces: [Data("hello".utf8)], failure: Self.dropped),
      .init(
        status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 0-9/10"],
        pieces: [Data("helloworld".utf8)], failure: nil),
    ])
    let failure = await #expect(throws: FileTransferFailure.self) {
      _ = try await stubConnection(transport).download(RawStubCall(path: "file"), to: destination)
    }
    #expect(failure?.kind == .rangeMismatch)
    #expect(leftovers.isEmpty, "the partial file is discarded, so the next call starts over")
  }

  @Test func aBodyShorterThanAnnouncedIsNeverMovedIntoPlace() async throws {
    let transport = ScriptedStreamingTransport([
      .init(
        status: 200, headers: ["Content-Length": "10"], pieces: [Data("hello".utf8)],
        failure: nil)
    ])
    let failure = await #expect(throws: FileTransferFailure.self) {
      _ = try await stubConnection(transport).download(RawStubCall(path: "file"), to: destination)
    }
    #expect(failure?.kind == .incomplete)
    #expect(!FileManager.default.fileExists(atPath: destination.path))
    #expect(ErrorMessageProvider.category(of: failure!) == .unreadableResponse)
  }
}
