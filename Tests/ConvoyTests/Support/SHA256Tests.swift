import Convoy
import Foundation
import Testing

/// The NIST examples for SHA-256 (FIPS 180-4; "SHA256.pdf" and the SHAVS long message).
@Suite struct SHA256Tests {
  private static func hex(_ bytes: [UInt8]) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }

  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func matchesTheNISTVectors(message: String, digest: String) {
    #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
  }

  @Test func hashesAMillionAs() {
    #expect(
      Self.hex(SHA256.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func paddingBoundariesGiveDistinctDigests() {
    // 55, 56 and 64 bytes: the length fits in the last block, needs another, fills one exactly.
    let digests = [55, 56, 63, 64, 65].map {
      Self.hex(SHA256.hash(Array(repeating: 0x61, count: $0)))
    }
    #expect(Set(digests).count == 5)
    #expect(
      digests[3] == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
  }
}
