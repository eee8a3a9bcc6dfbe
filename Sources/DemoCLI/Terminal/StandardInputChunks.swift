import Convoy
import Dispatch
import Foundation

/// Standard input as chunks of up to 64 KiB, read once: a one-shot request body.
///
/// A chunk is whatever one `read(2)` returns, so a pipe that trickles (`tail -f log | democli
/// upload -`) or a terminal's line is sent as it comes, not held until 64 KiB have arrived.
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
        Self.queue.async { continuation.resume(returning: Self.readSome()) }
      }
      let bytes = try chunk.get()
      guard !bytes.isEmpty else { return nil }
      bytesRead.withLock { $0 += Int64(bytes.count) }
      return bytes
    }

    /// Up to 64 KiB: what one `read(2)` of standard input returns, empty at its end.
    private static func readSome() -> Result<Data, POSIXError> {
      var buffer = [UInt8](repeating: 0, count: 64 << 10)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count >= 0 { return .success(Data(buffer[0..<count])) }
        guard errno == EINTR else {
          return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
      }
    }
  }
}
