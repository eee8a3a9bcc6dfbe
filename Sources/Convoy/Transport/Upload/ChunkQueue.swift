import Foundation

/// The chunks of a streamed body that wait to be sent, first in, first out: taken whole (by a
/// writer's channel) or a few bytes at a time (by libcurl's read callback).
///
/// A chunk is let go of as soon as it is taken. A queue the producer keeps topped up never
/// empties, and one that kept its taken chunks until it did held the whole body.
struct ChunkQueue {
  private var chunks: [Data] = []
  private var head = 0
  /// Bytes of `chunks[head]` already taken.
  private var offset = 0
  /// The bytes waiting.
  private(set) var byteCount = 0

  /// Whether nothing waits.
  var isEmpty: Bool { head == chunks.count }

  mutating func append(_ chunk: Data) {
    chunks.append(chunk)
    byteCount += chunk.count
  }

  /// Takes the first chunk whole, or what is left of it once bytes of it were copied.
  mutating func takeFirst() -> Data? {
    guard !isEmpty else { return nil }
    let chunk = offset == 0 ? chunks[head] : chunks[head].dropFirst(offset)
    byteCount -= chunk.count
    releaseFirst()
    return chunk
  }

  /// Copies as many waiting bytes as fit into `buffer`; the count copied.
  mutating func copy(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    var copied = 0
    while copied < buffer.count, !isEmpty {
      let chunk = chunks[head]
      let count = min(buffer.count - copied, chunk.count - offset)
      chunk.withUnsafeBytes { bytes in
        (buffer.baseAddress! + copied).copyMemory(
          from: bytes.baseAddress!.advanced(by: offset), byteCount: count)
      }
      copied += count
      offset += count
      byteCount -= count
      if offset == chunk.count { releaseFirst() }
    }
    return copied
  }

  private mutating func releaseFirst() {
    chunks[head] = Data()
    head += 1
    offset = 0
    if head == chunks.count {
      chunks.removeAll(keepingCapacity: true)
      head = 0
    } else if head * 2 >= chunks.count {
      // No more chunks move than were taken since the last time: amortized constant.
      chunks.removeFirst(head)
      head = 0
    }
  }
}
