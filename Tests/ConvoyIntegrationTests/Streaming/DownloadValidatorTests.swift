import Convoy
import Foundation
import Testing

/// A resumed download is checked against the partial file's validator even when the server
/// ignores `If-Range` (the fault server's `/range-ignoring-if-range`): a `206` of a changed file
/// is never appended to the old file's head.
@Suite("Download resume against a server that ignores If-Range", .timeLimit(.minutes(2)))
struct DownloadValidatorTests {
  /// `/range-ignoring-if-range`: 1,000 bytes of one letter per version, ETag `"v<version>"`.
  private struct VersionedFileCall: RequestDescribing {
    typealias Response = DataResponse
    var version: Int
    /// Where the server closes the body early, nil for the whole body.
    var cut: Int?
    var key: String
    var method: HTTPMethod { .get }
    var path: String { "/range-ignoring-if-range" }
    var queryItems: [URLQueryItem] {
      var items = [
        URLQueryItem(name: "version", value: String(version)),
        URLQueryItem(name: "key", value: key),
      ]
      if let cut { items.append(URLQueryItem(name: "cut", value: String(cut))) }
      return items
    }
  }

  private func connection(_ kind: TransportUnderTest) throws -> ServerConnection {
    var configuration = ServerConfiguration.local(port: FaultServer.shared.port)
    configuration.timeout = 300
    configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
    return ServerConnection(configuration: configuration, transport: try kind.make())
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRangeOfAChangedFileIsNotSplicedOntoTheOldPart(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("file.bin")
    let connection = try connection(kind)
    let key = UUID().uuidString
    // Version 1 breaks off after 400 bytes, which stay as the partial file.
    await #expect(throws: ServerConnectionError.self) {
      try await connection.download(
        VersionedFileCall(version: 1, cut: 400, key: key), to: destination)
    }
    // Version 2 is asked for from byte 400 with If-Range "v1"; the server answers 206 anyway.
    let file = try await connection.download(
      VersionedFileCall(version: 2, key: key), to: destination)
    #expect(try Data(contentsOf: destination) == Data(repeating: UInt8(ascii: "c"), count: 1000))
    #expect(file.response.statusCode == 200)
    #expect(file.resumedByteCount == 0)
    // The cut answer, the refused range, and the whole body: the range was tried.
    #expect(FaultServer.shared.hits(key: key) == 3)
    #expect(folder.names == ["file.bin"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRangeOfTheSameFileIsStillResumed(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let destination = folder.url.appendingPathComponent("file.bin")
    let connection = try connection(kind)
    let key = UUID().uuidString
    await #expect(throws: ServerConnectionError.self) {
      try await connection.download(
        VersionedFileCall(version: 3, cut: 400, key: key), to: destination)
    }
    let file = try await connection.download(
      VersionedFileCall(version: 3, key: key), to: destination)
    #expect(try Data(contentsOf: destination) == Data(repeating: UInt8(ascii: "d"), count: 1000))
    #expect(file.response.statusCode == 206)
    #expect(file.resumedByteCount == 400)
    #expect(FaultServer.shared.hits(key: key) == 2)
  }
}
