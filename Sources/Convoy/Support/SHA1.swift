/// SHA-1 (FIPS 180-4 §6.1), for the WebSocket handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2).
///
/// SHA-1 is broken for signatures, but RFC 6455 uses it only to prove that the server read this
/// handshake's key, which needs no collision resistance. Convoy has no CryptoKit on Linux and
/// takes no package dependencies, so the hash is written here, in the shape of ``SHA256``, and
/// checked against the NIST test vectors (the empty message, "abc", the 448-bit message, a million
/// "a"). It hashes short values; it is not tuned for bulk data.
package enum SHA1 {
  /// The 20-byte digest of `message`.
  package static func hash<Bytes: Sequence>(_ message: Bytes) -> [UInt8]
  where Bytes.Element == UInt8 {
    var state = initialState
    var block: [UInt8] = []
    block.reserveCapacity(64)
    var length: UInt64 = 0
    for byte in message {
      block.append(byte)
      length &+= 1
      if block.count == 64 {
        compress(&state, block)
        block.removeAll(keepingCapacity: true)
      }
    }
    // §5.1.1: a 1 bit, zeros up to 56 bytes modulo 64, then the length in bits, big-endian.
    block.append(0x80)
    if block.count > 56 {
      block.append(contentsOf: repeatElement(0, count: 64 - block.count))
      compress(&state, block)
      block.removeAll(keepingCapacity: true)
    }
    block.append(contentsOf: repeatElement(0, count: 56 - block.count))
    let bits = length &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      block.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
    }
    compress(&state, block)
    return state.flatMap { word in
      [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
    }
  }

  /// §5.3.1.
  private static let initialState: [UInt32] = [
    0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0,
  ]

  private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
  }

  /// §6.1.2: one 64-byte block into the state.
  private static func compress(_ state: inout [UInt32], _ block: [UInt8]) {
    var schedule = [UInt32](repeating: 0, count: 80)
    for index in 0..<16 {
      let offset = index * 4
      schedule[index] =
        UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
        | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
    }
    for index in 16..<80 {
      schedule[index] = rotateLeft(
        schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16], 1)
    }
    var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
    for index in 0..<80 {
      // §4.1.1: the function and constant (§4.2.1) change every 20 rounds.
      let (function, constant): (UInt32, UInt32) =
        switch index {
        case 0..<20: ((b & c) | (~b & d), 0x5a82_7999)
        case 20..<40: (b ^ c ^ d, 0x6ed9_eba1)
        case 40..<60: ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
        default: (b ^ c ^ d, 0xca62_c1d6)
        }
      let temporary = rotateLeft(a, 5) &+ function &+ e &+ constant &+ schedule[index]
      (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, temporary)
    }
    for (index, value) in [a, b, c, d, e].enumerated() {
      state[index] = state[index] &+ value
    }
  }
}
