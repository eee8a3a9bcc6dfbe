import Convoy
import Dispatch
import Foundation

/// Standard input as chunks of up to 64 KiB, read once: a one-shot request body.
///
/// Each read blocks, so it runs on a queue of its own, never on a thread of Swift's
/// concurrency pool (two threads on a two-core machine: a blocked one would stall the transfer).
struct StandardInputChunks: AsyncSequence, Sendable {
  typealias Element = Data

  /// Counts what was read, for the summary.
  let bytesRead = Locked<Int64>(0)

  func makeAsyncIterator() -> Iterator {
    Iterator(bytesRead: bytesRead)
  }

  struct Iterator: AsyncIteratorProtocol {
    private static let queue = DispatchQueue(label: "democli.stdin")
    let bytesRead: Locked<Int64>

    mutating func next() async throws -> Data? {
      let chunk = await withCheckedContinuation { continuation in
        Self.queue.async {
          continuation.resume(returning: FileHandle.standardInput.readData(ofLength: 64 << 10))
        }
      }
      guard !chunk.isEmpty else { return nil }
      bytesRead.withLock { $0 += Int64(chunk.count) }
      return chunk
    }
  }
}
