import Convoy
import Foundation
import Testing

/// The NIST examples for SHA-1 (FIPS 180-4; "SHA1.pdf" and the SHAVS long message).
@Suite struct SHA1Tests {
  private static func hex(_ bytes: [UInt8]) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }

  @Test(arguments: [
    ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "a49b2446a02c645bf419f995b67091253a04a259"
    ),
  ])
  func matchesTheNISTVectors(message: String, digest: String) {
    #expect(Self.hex(SHA1.hash(Array(message.utf8))) == digest)
  }

  @Test func hashesAMillionAs() {
    #expect(
      Self.hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000)))
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test func paddingBoundariesGiveDistinctDigests() {
    // 55, 56 and 64 bytes: the length fits in the last block, needs another, fills one exactly.
    let digests = [55, 56, 63, 64, 65].map {
      Self.hex(SHA1.hash(Array(repeating: 0x61, count: $0)))
    }
    #expect(Set(digests).count == 5)
    #expect(digests.allSatisfy { $0.count == 40 })
    // The 64-byte digest, from `printf 'a%.0s' {1..64} | sha1sum`.
    #expect(digests[3] == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
  }
}
