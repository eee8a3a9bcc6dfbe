import Convoy
import Foundation
import Testing

/// Downloads and streams are operations: steps of chains, members of groups, cancelled by the
/// job's token, counted in the job's progress in bytes.
@Suite("Transfers in jobs", .timeLimit(.minutes(2)), .needs(.httpbin))
struct TransferJobTests {
  /// A job made from whatever operation the test builds.
  private struct Built<Output: Sendable>: Job {
    let make: @Sendable (ServerConnection) -> ResultOperation<Output>
    func makeOperation(on connection: ServerConnection) -> ResultOperation<Output> {
      make(connection)
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aGroupOfDownloadsReportsItsBytes(_ kind: TransportUnderTest) async throws {
    let folder = try TemporaryFolder()
    let root = folder.url
    let connection = try streamingConnection(kind)
    let updates = Locked<[JobProgress]>([])
    let files = try await connection.run(
      Built { connection in
        GroupOperation(
          [
            connection.downloadOperation(
              for: StreamCall(path: "/range/60000"), to: root.appendingPathComponent("a")),
            connection.downloadOperation(
              for: StreamCall(path: "/range/40000"), to: root.appendingPathComponent("b")),
          ] as [ResultOperation<DownloadedFile>])
      },
      progress: { progress in updates.withLock { $0.append(progress) } })
    #expect(files.map(\.byteCount) == [60_000, 40_000])
    let seen = updates.withLock { $0 }
    #expect(seen.contains { $0.transferredBytes > 0 && $0.transferredBytes < 100_000 })
    #expect(seen.last?.transferredBytes == 100_000)
    #expect(seen.last?.expectedBytes == 100_000)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aStreamStepFeedsTheNextStepOfAChain(_ kind: TransportUnderTest) async throws {
    let connection = try streamingConnection(kind)
    let count = try await connection.run(
      Built { connection in
        connection.streamOperation(for: StreamCall(path: "/stream/5")) { stream in
          var lines = 0
          for try await _ in stream.body.lines { lines += 1 }
          return lines
        }
        .then { lines in connection.operation(for: StreamCall(path: "/range/\(lines)")) }
        .map { $0.data.count }
      })
    #expect(count == 5)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func theJobsTokenClosesARunningStream(_ kind: TransportUnderTest) async throws {
    let connection = try streamingConnection(kind, networkLimit: 1)
    let started = OneShot<Void>()
    let outcome = OneShot<Result<Int, any Error>>()
    let token = connection.run(
      Built { connection in
        connection.streamOperation(
          for: StreamCall(path: "/drip?duration=30&numbytes=30&delay=0")
        ) { stream in
          var count = 0
          for try await chunk in stream.body {
            started.fulfil(())
            count += chunk.count
          }
          return count
        }
      }, completionQueue: DispatchQueue(label: "test")
    ) { result in outcome.fulfil(result) }
    await started.value()
    token.cancel()
    let result = await outcome.value()
    #expect(throws: ServerConnectionError.cancelled) { try result.get() }
    // The slot is free again: the only one the connection has.
    let answer = try await connection.execute(StreamCall(path: "/get"))
    #expect(answer.response.statusCode == 200)
  }
}
