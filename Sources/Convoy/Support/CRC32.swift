/// CRC-32 (ISO 3309 / ITU-T V.42, the checksum of zip, gzip and PNG), for the records of a
/// ``RecordJournal``: it tells a record written whole from one torn by a crash or damaged on
/// disk.
///
/// A checksum, not a hash: it catches accidents (torn writes, flipped bits), never tampering.
/// Checked against the standard check value (`"123456789"` → `0xCBF43926`).
package enum CRC32 {
  /// The checksum of `bytes`, continuing from `crc` (the checksum of what came before; `0` to
  /// start).
  package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0)
    -> UInt32
  {
    var value = ~crc
    // The table's buffer once, not the global's accessor and a bounds check per byte: replaying
    // a journal checks megabytes.
    table.withUnsafeBufferPointer { table in
      for byte in bytes {
        value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
      }
    }
    return ~value
  }

  /// The checksum of `bytes`.
  package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    let array = Array(bytes)
    return array.withUnsafeBytes { checksum($0) }
  }

  /// The remainders of every byte, for the reflected polynomial 0xEDB88320.
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 {
      value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
    }
    return value
  }
}
