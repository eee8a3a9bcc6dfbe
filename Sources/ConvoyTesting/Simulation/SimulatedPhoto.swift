import Foundation

/// The photo of a simulated place: a large binary that any process can regenerate byte for byte
/// from the place's id, so a download can be checked against it without keeping it anywhere.
///
/// The bytes are 8-byte little-endian blocks: block `k` (bytes `8k ..< 8k + 8`) is SplitMix64's
/// output for the state `seed + (k + 1) × 0x9E3779B97F4A7C15`, where `seed` is the place id
/// times `0x2545F4914F6CDD1D`. Any range can be made on its own, which is what a `Range`
/// request needs, and pieces are made as they are sent, so the photo is never whole in memory.
package enum SimulatedPhoto {
  /// The photo's size in bytes: a little over 40 MB, different for every place.
  package static func size(placeID: Int) -> Int64 {
    40_000_000 + Int64(placeID) * 1_009
  }

  /// The photo's strong entity tag, as `ETag` and `If-Range` carry it (quotes included).
  package static func entityTag(placeID: Int) -> String {
    "\"photo-\(placeID)-\(size(placeID: placeID))\""
  }

  /// The bytes `range` of the photo; the range is clamped to the photo's size.
  package static func bytes(placeID: Int, range: Range<Int64>) -> Data {
    let lower = max(0, range.lowerBound)
    let upper = min(size(placeID: placeID), range.upperBound)
    guard lower < upper else { return Data() }
    let seed = UInt64(bitPattern: Int64(placeID)) &* 0x2545_F491_4F6C_DD1D
    var data = Data(count: Int(upper - lower))
    data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
      var offset = lower
      var index = 0
      while offset < upper {
        let block = splitMix(seed &+ (UInt64(offset / 8) &+ 1) &* 0x9E37_79B9_7F4A_7C15)
        var shift = UInt64((offset % 8) * 8)
        // Whole blocks are the common case; only the ends of a range start or stop mid-block.
        while shift < 64, offset < upper {
          buffer[index] = UInt8(truncatingIfNeeded: block >> shift)
          shift += 8
          offset += 1
          index += 1
        }
      }
    }
    return data
  }

  private static func splitMix(_ state: UInt64) -> UInt64 {
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
