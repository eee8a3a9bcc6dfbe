import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The system's secure generator, drawn from in batches: for the masking keys of a client's frames
/// (RFC 6455 §5.3 wants them from a strong source of entropy, and unpredictable).
///
/// On Linux each number of `SystemRandomNumberGenerator` is a `getrandom` system call: one per
/// message sent, a measurable share of a small message's cost. Here one call fills a batch; the
/// numbers are as random, just fetched ahead. Elsewhere (and where `getrandom` is missing) the
/// numbers come from `SystemRandomNumberGenerator`, already cheap on Apple platforms.
package struct BatchedSystemRandom: RandomNumberGenerator, Sendable {
  private var batch: [UInt64] = []

  /// How many numbers one system call fetches.
  private static let batchSize = 64

  /// A generator with nothing fetched yet.
  package init() {}

  /// The next number, fetching a batch first when the last one is used up.
  package mutating func next() -> UInt64 {
    if batch.isEmpty { batch = Self.fetch() }
    return batch.removeLast()
  }

  private static func fetch() -> [UInt64] {
    #if os(Linux)
      if let getrandom = SystemRandomFunction.getrandom {
        var numbers = [UInt64](repeating: 0, count: batchSize)
        let filled = numbers.withUnsafeMutableBytes { getrandom($0.baseAddress, $0.count, 0) }
        if filled == batchSize * MemoryLayout<UInt64>.size { return numbers }
      }
    #endif
    var system = SystemRandomNumberGenerator()
    return [system.next()]
  }
}

#if os(Linux)
  /// `getrandom(2)`, looked up in the C library already loaded: Swift's Glibc module does not map
  /// `sys/random.h`.
  private enum SystemRandomFunction {
    static let getrandom: (@convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int)? =
      dlsym(nil, "getrandom").map {
        unsafeBitCast(
          $0, to: (@convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int).self)
      }
  }
#endif
