import Foundation

/// Payloads for the deflate tests: reproducible random bytes, text that compresses, and a
/// compression bomb written bit by bit.
enum DeflateTestData {
  /// `count` bytes from SplitMix64 seeded with `seed`: the same bytes on every run.
  static func random(count: Int, seed: UInt64) -> Data {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in bytes.indices {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
      bytes[index] = UInt8(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }
    return Data(bytes)
  }

  /// JSON-like text of about `count` bytes, repetitive as real messages are.
  static func text(count: Int, seed: UInt64) -> Data {
    let noise = random(count: count / 8 + 1, seed: seed)
    var text = ""
    var index = 0
    while text.utf8.count < count {
      text += #"{"id":\#(noise[index % noise.count]),"name":"place \#(index)","open":true},"#
      index += 1
    }
    return Data(text.utf8.prefix(count))
  }

  /// A permessage-deflate payload (the sync flush's `00 00 FF FF` removed) of one fixed-Huffman
  /// block: a literal zero, then `repeats` copies of "length 258 at distance 1", each 13 bits.
  /// It inflates to `1 + 258 × repeats` zeros, about 159 times its own size (258 bytes per 13
  /// bits): a 4 MB payload stands for some 650 MB.
  static func bomb(repeats: Int) -> Data {
    var writer = BitWriter()
    writer.write(0, bits: 1)  // BFINAL: not the last block
    writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes (RFC 1951 §3.2.6)
    writer.writeCode(0b0011_0000, length: 8)  // literal 0
    for _ in 0..<repeats {
      writer.writeCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
      writer.writeCode(0, length: 5)  // distance code 0: distance 1
    }
    writer.writeCode(0, length: 7)  // end of block (256)
    writer.write(0, bits: 3)  // the empty stored block of the sync flush, up to its LEN
    writer.alignToByte()
    return Data(writer.bytes)
  }

  /// The highest resident set size of this process so far (VmHWM), in bytes; Linux only.
  static func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1])
    else { return nil }
    return kilobytes * 1024
  }

  /// DEFLATE's bit order (RFC 1951 §3.1.1): fields from the least significant bit, Huffman codes
  /// from their most significant.
  private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    mutating func write(_ value: UInt64, bits: Int) {
      buffer |= value << count
      count += bits
      while count >= 8 {
        bytes.append(UInt8(truncatingIfNeeded: buffer))
        buffer >>= 8
        count -= 8
      }
    }

    mutating func writeCode(_ code: UInt64, length: Int) {
      var reversed: UInt64 = 0
      for bit in 0..<length where code & (1 << bit) != 0 {
        reversed |= 1 << (length - 1 - bit)
      }
      write(reversed, bits: length)
    }

    mutating func alignToByte() {
      if count > 0 { write(0, bits: 8 - count) }
    }
  }
}
