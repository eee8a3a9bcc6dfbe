import Foundation

/// The simulated API's photo of a place, made here again from its documented definition (see
/// `SimulatedPhoto` in ConvoyTesting), so a download is checked against the specification
/// rather than against the code that served it.
enum SimulatedPhotoBytes {
  static func size(placeID: Int) -> Int64 {
    40_000_000 + Int64(placeID) * 1_009
  }

  /// Whether the file at `url` is exactly place `placeID`'s photo: its size, then every byte.
  static func matches(_ url: URL, placeID: Int) throws -> Bool {
    let size = size(placeID: placeID)
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    guard (attributes[.size] as? NSNumber)?.int64Value == size else { return false }
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let seed = UInt64(placeID) &* 0x2545_F491_4F6C_DD1D
    let chunkBlocks = 1 << 17  // 1 MiB of 8-byte blocks per read
    var block: UInt64 = 0
    while true {
      let chunk = handle.readData(ofLength: chunkBlocks * 8)
      if chunk.isEmpty { return true }
      let matched = chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
        var index = 0
        while index < bytes.count {
          let value = splitMix(seed &+ (block &+ 1) &* 0x9E37_79B9_7F4A_7C15)
          for byte in 0..<min(8, bytes.count - index)
          where bytes[index + byte] != UInt8(truncatingIfNeeded: value >> UInt64(byte * 8)) {
            return false
          }
          index += 8
          block += 1
        }
        return true
      }
      if !matched { return false }
    }
  }

  private static func splitMix(_ state: UInt64) -> UInt64 {
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
