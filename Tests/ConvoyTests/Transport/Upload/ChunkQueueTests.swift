import Foundation
import Testing

@testable import Convoy

@Suite struct ChunkQueueTests {
  @Test func bytesLeaveInOrderAcrossChunksWholeOrInPieces() {
    var queue = ChunkQueue()
    queue.append(Data("abc".utf8))
    queue.append(Data("defg".utf8))
    queue.append(Data("h".utf8))
    #expect(queue.byteCount == 8)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 5, alignment: 1)
    defer { buffer.deallocate() }
    #expect(queue.copy(into: buffer) == 5)
    #expect(Data(buffer) == Data("abcde".utf8))
    #expect(queue.byteCount == 3)
    // What is left of a chunk partly copied, then the next one whole.
    #expect(queue.takeFirst() == Data("fg".utf8))
    #expect(queue.takeFirst() == Data("h".utf8))
    #expect(queue.isEmpty)
    #expect(queue.byteCount == 0)
    #expect(queue.takeFirst() == nil)
    #expect(queue.copy(into: buffer) == 0)
  }

  @Test func aQueueKeptFullStaysSmall() {
    var queue = ChunkQueue()
    for index in 0..<10_000 {
      queue.append(Data([UInt8(truncatingIfNeeded: index)]))
      if index >= 3 {
        #expect(queue.takeFirst() == Data([UInt8(truncatingIfNeeded: index - 3)]))
      }
    }
    #expect(queue.byteCount == 3)
  }
}
