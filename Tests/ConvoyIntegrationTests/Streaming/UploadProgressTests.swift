import Convoy
import Foundation
import Testing

/// Uploads report how much of the body went out, on every transport, for bodies in memory and
/// bodies streamed from disk, and still answer like a buffered call.
@Suite("Upload progress", .timeLimit(.minutes(2)), .needs(.httpbin))
struct UploadProgressTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aFileBodyReportsItsProgressToTheEnd(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let file = folder.url.appendingPathComponent("upload.txt")
    let text = String(repeating: "line of the upload\n", count: 40_000)
    try Data(text.utf8).write(to: file)
    var call = StreamCall(method: .put, path: "/anything")
    call.body = .file(file, contentType: "text/plain")
    let updates = Updates()
    let answer = try await streamingConnection(kind).execute(call) { updates.add($0) }
    let echo = try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])
    #expect((echo["data"] as? String)?.count == text.utf8.count)
    let seen = updates.all
    let total = Int64(text.utf8.count)
    #expect(seen.last?.completedBytes == total)
    #expect(seen.allSatisfy { $0.totalBytes == nil || $0.totalBytes == total })
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aBodyInMemoryReportsItsProgress(_ kind: TransportUnderTest) async throws {
    var call = StreamCall(method: .post, path: "/post")
    let payload = String(repeating: "x", count: 300_000)
    call.body = .text(payload)
    let updates = Updates()
    let answer = try await streamingConnection(kind).execute(call) { updates.add($0) }
    #expect(answer.response.statusCode == 200)
    #expect(updates.all.last?.completedBytes == Int64(payload.utf8.count))
  }
}
