import ConvoyTestSupport
import Foundation
import Testing

@testable import Convoy

/// The queues between a streamed body's source and the transport hold only what waits to be
/// sent: a chunk taken is let go at once, even while the source keeps the queue topped up and it
/// never empties. Each chunk counts itself alive until its bytes are freed.
@Suite(.timeLimit(.minutes(1))) struct SentChunkReleaseTests {
  /// The bytes of a chunk: more than `Data` keeps inline (which would copy them and free the
  /// counted buffer at once).
  static let chunkSize = 64

  /// Chunks that count how many of them are alive.
  final class CountedChunks: Sendable {
    let alive = Locked(0)
    let made = Locked(0)

    func make() -> Data {
      let size = SentChunkReleaseTests.chunkSize
      let pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
      pointer.initializeMemory(as: UInt8.self, repeating: 0x41, count: size)
      alive.withLock { $0 += 1 }
      made.withLock { $0 += 1 }
      return Data(
        bytesNoCopy: pointer, count: size,
        deallocator: .custom { [alive] pointer, _ in
          pointer.deallocate()
          alive.withLock { $0 -= 1 }
        })
    }
  }

  @Test func aWritersChannelLetsGoOfEachChunkItHandsOver() async throws {
    let chunks = CountedChunks()
    let channel = BodyChannel(capacity: 4 * Self.chunkSize)
    let total = 200
    let producer = Task {
      for _ in 0..<total { try await channel.send(chunks.make()) }
      channel.finish()
    }
    var mostAlive = 0
    for taken in 0..<total {
      // The queue is full before every read, so it never empties.
      _ = try await poll(every: .milliseconds(1)) {
        chunks.made.current >= min(total, taken + 4) ? true : nil
      }
      let chunk = try #require(try await channel.next())
      #expect(chunk.count == Self.chunkSize)
      mostAlive = max(mostAlive, chunks.alive.current)
    }
    #expect(try await channel.next() == nil)
    try await producer.value
    #expect(mostAlive <= 8, "\(mostAlive) chunks were alive at once")
  }

  /// `total` chunks, each made when it is asked for.
  struct MadeOnDemand: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: CountedChunks
    let total: Int

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks, total: total) }

    struct Iterator: AsyncIteratorProtocol {
      let chunks: CountedChunks
      let total: Int

      mutating func next() async -> Data? {
        chunks.made.current < total ? chunks.make() : nil
      }
    }
  }

  #if os(Linux)
    @Test func curlsReadAheadLetsGoOfEachChunkSent() async throws {
      let chunks = CountedChunks()
      let total = 200
      let pump = CurlBodyPump(
        stream: try StreamedBody.oneShot(MadeOnDemand(chunks: chunks, total: total)).open(),
        capacity: 4 * Self.chunkSize, wake: {})
      pump.start()
      defer { pump.stop() }
      let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: Self.chunkSize, alignment: 1)
      defer { buffer.deallocate() }
      var sent = 0
      var mostAlive = 0
      while sent < total * Self.chunkSize {
        // Read only once the pump has read ahead, so its queue never empties.
        let taken = sent / Self.chunkSize
        _ = try await poll(every: .milliseconds(1)) {
          chunks.made.current >= min(total, taken + 2) ? true : nil
        }
        switch pump.read(into: buffer) {
        case .bytes(let count):
          sent += count
          mostAlive = max(mostAlive, chunks.alive.current)
        case .pause:
          continue
        case .end, .abort:
          Issue.record("the body ended after \(sent) bytes")
          return
        }
      }
      #expect(mostAlive <= 8, "\(mostAlive) chunks were alive at once")
    }
  #endif
}
