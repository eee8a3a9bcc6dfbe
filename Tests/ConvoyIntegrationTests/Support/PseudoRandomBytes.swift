import Foundation

/// A deterministic stream of pseudo-random bytes (SplitMix64), for test files whose content
/// must be reproducible and must not compress or repeat.
struct PseudoRandomBytes {
  private var state: UInt64

  /// Starts the stream; the same seed gives the same bytes.
  init(seed: UInt64) {
    state = seed
  }

  /// The next `count` bytes of the stream.
  mutating func next(_ count: Int) -> Data {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      var word = nextWord()
      for _ in 0..<min(8, count - bytes.count) {
        bytes.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    return Data(bytes)
  }

  private mutating func nextWord() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
