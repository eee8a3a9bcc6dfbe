import Convoy
import ConvoyTestSupport
import Foundation
import Testing

/// A GET of a file with optional headers, kept as bytes.
private struct FileGet: RequestDescribing {
  typealias Response = DataResponse
  var url: URL
  var headers: HTTPHeaders = [:]
  var method: HTTPMethod { .get }
  var path: String { url.absoluteString }
}

/// The harness's nginx serves files with `Range` and `If-Range` as the download tests need.
@Suite(.needs(.nginx)) struct NginxHarnessTests {
  private let nginx = Nginx.shared
  private let name = "harness-\(UUID().uuidString).bin"
  private let connection = ServerConnection(
    configuration: .local(port: Nginx.shared.port), transport: URLSessionTransport())

  private func contents(of file: URL, in range: Range<Int>) throws -> Data {
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(range.lowerBound))
    return try handle.read(upToCount: range.count) ?? Data()
  }

  /// nginx writes a line once the response is finished, which may be just after the client
  /// has it: look a few times.
  private func loggedRequests(for path: String, atLeast count: Int) async throws
    -> [Nginx.AccessLogLine]
  {
    let logged = try await poll(within: .seconds(1)) {
      let lines = try nginx.accessLog(for: path)
      return lines.count >= count ? lines : nil
    }
    return try logged ?? nginx.accessLog(for: path)
  }

  @Test func servesAWholeFileWithAnETag() async throws {
    let file = try nginx.makeFile(named: name, byteCount: 100_000, seed: 7)
    let answer = try await connection.execute(FileGet(url: nginx.url(ofFile: name)))
    #expect(answer.response.statusCode == 200)
    #expect(answer.data == (try Data(contentsOf: file)))
    #expect(answer.response.headers["ETag"] != nil)
    #expect(answer.response.headers["Accept-Ranges"] == "bytes")
  }

  @Test func answersARangeWith206AndOnlyThoseBytesAndLogsIt() async throws {
    let file = try nginx.makeFile(named: name, byteCount: 1_000)
    let answer = try await connection.execute(
      FileGet(url: nginx.url(ofFile: name), headers: ["Range": "bytes=10-19"]))
    #expect(answer.response.statusCode == 206)
    #expect(answer.response.headers["Content-Range"] == "bytes 10-19/1000")
    #expect(answer.data == (try contents(of: file, in: 10..<20)))
    let logged = try await loggedRequests(for: "/files/\(name)", atLeast: 1)
    #expect(logged.map(\.range) == ["bytes=10-19"])
    #expect(logged.map(\.status) == [206])
    #expect(logged.map(\.bodyBytesSent) == [10])
  }

  @Test func ignoresARangeWhoseIfRangeValidatorDoesNotMatch() async throws {
    try nginx.makeFile(named: name, byteCount: 1_000)
    let answer = try await connection.execute(
      FileGet(
        url: nginx.url(ofFile: name),
        headers: ["Range": "bytes=10-19", "If-Range": "\"another-version\""]))
    #expect(answer.response.statusCode == 200)
    #expect(answer.data.count == 1_000)
    let logged = try await loggedRequests(for: "/files/\(name)", atLeast: 1)
    #expect(logged.first?.ifRange == "\"another-version\"")
  }

  @Test func honoursARangeWhoseIfRangeIsTheCurrentETag() async throws {
    try nginx.makeFile(named: name, byteCount: 1_000)
    let whole = try await connection.execute(FileGet(url: nginx.url(ofFile: name)))
    let etag = try #require(whole.response.headers["ETag"])
    let answer = try await connection.execute(
      FileGet(url: nginx.url(ofFile: name), headers: ["Range": "bytes=990-", "If-Range": etag]))
    #expect(answer.response.statusCode == 206)
    #expect(answer.data.count == 10)
  }

  @Test func aSparseGigabyteIsServedWithoutTakingDiskOrMemory() async throws {
    try nginx.makeSparseFile(named: name, byteCount: 1 << 30)
    let answer = try await connection.execute(
      FileGet(url: nginx.url(ofFile: name), headers: ["Range": "bytes=-16"]))
    #expect(answer.response.statusCode == 206)
    #expect(answer.response.headers["Content-Range"] == "bytes 1073741808-1073741823/1073741824")
    #expect(answer.data == Data(count: 16))
  }

  @Test func theSlowLocationServesTheSameBytes() async throws {
    let file = try nginx.makeFile(named: name, byteCount: 4_096)
    let answer = try await connection.execute(FileGet(url: nginx.url(ofFile: name, slow: true)))
    #expect(answer.data == (try Data(contentsOf: file)))
  }

  @Test func generatedFilesAreTheSameForTheSameSeed() throws {
    let first = try nginx.makeFile(named: name, byteCount: 3_000_001, seed: 42)
    let second = try nginx.makeFile(named: "copy-" + name, byteCount: 3_000_001, seed: 42)
    let other = try nginx.makeFile(named: "other-" + name, byteCount: 1_000, seed: 43)
    #expect(try Data(contentsOf: first) == (try Data(contentsOf: second)))
    #expect(try contents(of: first, in: 0..<1_000) != (try Data(contentsOf: other)))
  }
}
