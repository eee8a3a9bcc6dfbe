/// Checks UTF-8 a piece at a time, for text messages that arrive in fragments (RFC 6455 §8.1).
///
/// A fragment may end in the middle of a character, so the check keeps the state of the
/// sequence under way between calls. It follows the well-formed byte sequences of the Unicode
/// Standard (§3.9, table 3-7): the second byte's range excludes overlong forms (`E0 80`-`E0 9F`,
/// `F0 80`-`F0 8F`), surrogates (`ED A0`-`ED BF`) and code points above U+10FFFF (`F4 90` on), so
/// a bad sequence fails at the first byte that makes it bad, as §8.1 asks ("as soon as"). It
/// decodes nothing: Foundation's and the standard library's decoders repair bad input with
/// U+FFFD where the protocol requires failing.
package struct UTF8Validator: Sendable, Hashable {
  /// Continuation bytes still owed by the sequence under way.
  private var remaining = 0
  /// The range the next continuation byte must fall in: narrower than `80`-`BF` only right after
  /// the lead bytes `E0`, `ED`, `F0` and `F4`.
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF
  private var failed = false

  /// Creates a validator at the start of a text.
  package init() {}

  /// Whether the text so far ends between characters, so that ``finish()`` would succeed.
  package var isAtCharacterBoundary: Bool { !failed && remaining == 0 }

  /// Checks the next bytes of the text.
  ///
  /// - Returns: `false` once the bytes so far cannot be the start of valid UTF-8; the validator
  ///   then stays failed.
  package mutating func validate(_ bytes: some Sequence<UInt8>) -> Bool {
    guard !failed else { return false }
    let handled = bytes.withContiguousStorageIfAvailable { buffer in
      validate(UnsafeRawBufferPointer(buffer))
    }
    if let handled { return handled }
    for byte in bytes where !step(byte) {
      return false
    }
    return true
  }

  /// Checks the next bytes of the text, from memory.
  package mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !failed else { return false }
    var index = 0
    let count = bytes.count
    while index < count {
      // Text is mostly ASCII: between characters, skip eight bytes at a time when none has its
      // high bit set.
      if remaining == 0, index + 8 <= count,
        bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      guard step(bytes[index]) else { return false }
      index += 1
    }
    return true
  }

  /// Checks that the text ended between characters.
  ///
  /// - Returns: `false` when the text was invalid or ended inside a sequence.
  package mutating func finish() -> Bool {
    if remaining != 0 { failed = true }
    return !failed
  }

  private mutating func step(_ byte: UInt8) -> Bool {
    if remaining > 0 {
      guard byte >= lower, byte <= upper else { return fail() }
      remaining -= 1
      lower = 0x80
      upper = 0xBF
      return true
    }
    switch byte {
    case 0x00...0x7F:
      return true
    case 0xC2...0xDF:
      remaining = 1
    case 0xE0:
      remaining = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF:
      remaining = 2
    case 0xED:
      remaining = 2
      upper = 0x9F
    case 0xF0:
      remaining = 3
      lower = 0x90
    case 0xF1...0xF3:
      remaining = 3
    case 0xF4:
      remaining = 3
      upper = 0x8F
    default:
      // 80-BF with no sequence under way, C0-C1 (overlong by construction), F5-FF (beyond U+10FFFF).
      return fail()
    }
    return true
  }

  private mutating func fail() -> Bool {
    failed = true
    return false
  }
}
