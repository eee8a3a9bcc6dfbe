#if os(Linux)
  import Foundation
  import Testing

  @testable import Convoy

  @Suite struct BodyBufferPoolTests {
    @Test func aLargeBodyLandsInAPooledBufferThatReturnsWhenTheDataIsGone() {
      let pool = BodyBufferPool(retainedByteLimit: 1 << 20)
      var buffer = CurlBodyBuffer(pool: pool)
      buffer.reserve(announced: 100_000)
      let bytes = [UInt8](repeating: 7, count: 100_000)
      bytes.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[0..<60_000])) }
      bytes.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[60_000...])) }
      var body: Data? = buffer.take()
      #expect(body?.count == 100_000)
      #expect(body?.allSatisfy { $0 == 7 } == true)
      #expect(pool.retainedBytes == 0)
      body = nil
      #expect(pool.retainedBytes == 128 << 10)  // 100,000 bytes round up to 128 KiB
      // The next body of that size reuses the buffer instead of fresh memory.
      let reused = pool.take(atLeast: 90_000)
      #expect(reused?.count == 128 << 10)
      #expect(pool.retainedBytes == 0)
      reused.map(pool.recycle)
    }

    @Test func smallAndHugeBodiesAreNotPooled() {
      let pool = BodyBufferPool(retainedByteLimit: 64 << 20)
      #expect(pool.take(atLeast: 10_000) == nil)
      #expect(pool.take(atLeast: 5 << 20) == nil)
      var buffer = CurlBodyBuffer(pool: pool)
      buffer.reserve(announced: 10_000)
      Data(repeating: 1, count: 10_000).withUnsafeBytes { buffer.append($0) }
      #expect(buffer.take().count == 10_000)
      #expect(pool.retainedBytes == 0)
    }

    @Test func aBodyLongerThanAnnouncedGoesOnInAGrowingData() {
      let pool = BodyBufferPool(retainedByteLimit: 1 << 20)
      var buffer = CurlBodyBuffer(pool: pool)
      buffer.reserve(announced: 70_000)  // a 128 KiB buffer
      let piece = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
      piece.withUnsafeBytes { buffer.append($0) }
      piece.withUnsafeBytes { buffer.append($0) }
      #expect(pool.retainedBytes == 128 << 10)  // given back when the body outgrew it
      let body = buffer.take()
      #expect(body == piece + piece)
    }

    @Test func thePoolKeepsNoMoreThanItsLimitAndFreesTheRest() {
      let pool = BodyBufferPool(retainedByteLimit: 256 << 10)
      let buffers = (0..<4).compactMap { _ in pool.take(atLeast: 100_000) }
      #expect(buffers.count == 4)
      buffers.forEach(pool.recycle)
      #expect(pool.retainedBytes == 256 << 10)
    }

    @Test func aTransferThatEndsWithoutABodyGivesItsBufferBack() {
      let pool = BodyBufferPool(retainedByteLimit: 1 << 20)
      var buffer = CurlBodyBuffer(pool: pool)
      buffer.reserve(announced: 200_000)
      Data(repeating: 3, count: 1_000).withUnsafeBytes { buffer.append($0) }
      buffer.discardPooled()
      #expect(pool.retainedBytes == 256 << 10)
      #expect(buffer.take().isEmpty)
    }
  }
#endif
