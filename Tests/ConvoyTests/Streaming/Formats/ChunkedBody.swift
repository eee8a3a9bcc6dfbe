import Convoy
import Foundation

/// Bodies for the format tests: the same bytes cut into chunks every possible way, and as the
/// `AsyncSequence` of `Data` a streamed answer is.
enum ChunkedBody {
  /// `text` as UTF-8 bytes.
  static func bytes(_ text: String) -> Data { Data(text.utf8) }

  /// Every way to cut `data` in two: at each index from 0 to its count (empty pieces included).
  static func twoPieces(_ data: Data) -> [[Data]] {
    (0...data.count).map { [data.prefix($0), data.dropFirst($0)] }
  }

  /// Every way to cut `data` in three; only for short inputs (quadratic).
  static func threePieces(_ data: Data) -> [[Data]] {
    var cuts: [[Data]] = []
    for first in 0...data.count {
      for second in first...data.count {
        cuts.append([
          data.prefix(first), data[(data.startIndex + first)..<(data.startIndex + second)],
          data.dropFirst(second),
        ])
      }
    }
    return cuts
  }

  /// `data` one byte per chunk.
  static func bytewise(_ data: Data) -> [Data] {
    data.indices.map { data[$0...$0] }
  }

  /// A finished stream of `chunks`.
  static func stream(_ chunks: [Data]) -> AsyncStream<Data> {
    AsyncStream { continuation in
      for chunk in chunks { continuation.yield(chunk) }
      continuation.finish()
    }
  }

  /// A stream of `chunks` that then fails with `error`.
  static func failing(_ chunks: [Data], with error: any Error) -> AsyncThrowingStream<
    Data, any Error
  > {
    AsyncThrowingStream { continuation in
      for chunk in chunks { continuation.yield(chunk) }
      continuation.finish(throwing: error)
    }
  }
}

extension ChunkedBody {
  /// A base that counts how often it was asked for a chunk, to see that formats read lazily.
  struct Counting: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]
    let pulls: Locked<Int>

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks, pulls: pulls) }

    struct Iterator: AsyncIteratorProtocol {
      let chunks: [Data]
      let pulls: Locked<Int>
      var index = 0

      mutating func next() async -> Data? {
        pulls.withLock { $0 += 1 }
        guard index < chunks.count else { return nil }
        defer { index += 1 }
        return chunks[index]
      }
    }
  }

  /// An error a test body fails with.
  struct Failed: Error, Equatable {}

  /// SplitMix64: the same random streams on every run and every platform.
  struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
