import Foundation
import Testing

@testable import Convoy

/// ``UTF8Validator`` (named for the WebSocket text it guards, so `--filter WebSocket` runs it):
/// the well-formed sequences of the Unicode Standard (§3.9, table 3-7), whole and in pieces.
@Suite struct WebSocketUTF8ValidatorTests {
  private func isValid(_ bytes: [UInt8]) -> Bool {
    var validator = UTF8Validator()
    return validator.validate(bytes) && validator.finish()
  }

  @Test(
    arguments: [
      [], Array("plain ASCII, longer than one eight-byte word".utf8),
      // U+0080, U+07FF
      [0xC2, 0x80], [0xDF, 0xBF],
      // U+0800, U+D7FF, U+E000, U+FFFF
      [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
      // U+10000, 😀, U+10FFFF
      [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      Array("κόσμε — 𝄞 and more ASCII after it".utf8),
    ] as [[UInt8]])
  func acceptsWellFormedText(bytes: [UInt8]) {
    #expect(isValid(bytes))
  }

  @Test(
    arguments: [
      // overlong
      [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
      [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
      // surrogates
      [0xED, 0xA0, 0x80], [0xED, 0xAF, 0xBF], [0xED, 0xB0, 0x80], [0xED, 0xBF, 0xBF],
      // past U+10FFFF
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF],
      [0xFE], [0xFF], [0x80], [0xBF],  // never a lead byte
      [0xE2, 0x41, 0x82], [0xC3, 0xC3, 0xA9],  // a continuation missing mid-sequence
    ] as [[UInt8]])
  func rejectsIllFormedText(bytes: [UInt8]) {
    #expect(!isValid(bytes))
    // The same bytes after a run of ASCII, so they are met after the eight-byte fast path too.
    #expect(!isValid(Array("0123456789abcdef".utf8) + bytes))
  }

  @Test(arguments: [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x61, 0xF4]] as [[UInt8]])
  func finishFailsOnATruncatedSequence(bytes: [UInt8]) {
    var validator = UTF8Validator()
    let accepted = validator.validate(bytes)
    #expect(accepted)
    #expect(!validator.isAtCharacterBoundary)
    let finished = validator.finish()
    #expect(!finished)
  }

  @Test func failsAtTheFirstByteThatMakesTheSequenceBad() {
    var validator = UTF8Validator()
    let lead = validator.validate([0xF4])
    let beyondTheLastCodePoint = validator.validate([0x90])
    // And stays failed.
    let after = validator.validate([0x61])
    let finished = validator.finish()
    #expect(lead)
    #expect(!beyondTheLastCodePoint)
    #expect(!after)
    #expect(!finished)
  }

  @Test func acceptsTextSplitAtEveryByte() {
    let text = Array("ASCII run 😀 then é and € and 𝄞, more ASCII ............".utf8)
    for split in 0...text.count {
      var validator = UTF8Validator()
      let valid = validator.validate(text[..<split]) && validator.validate(text[split...])
      #expect(valid && validator.finish(), "split at \(split)")
    }
  }

  @Test func validatesFromDataAndFromNonContiguousSequences() {
    var fromData = UTF8Validator()
    let dataIsValid = fromData.validate(Data([0xF0, 0x9F, 0x98, 0x80])) && fromData.finish()
    var fromSequence = UTF8Validator()
    let sequenceIsValid = fromSequence.validate([0xED, 0xA0, 0x80].lazy.map { $0 })
    #expect(dataIsValid)
    #expect(!sequenceIsValid)
  }

  /// Every two-byte sequence, and seeded random sequences biased to the bytes that matter, agree
  /// with the standard library's own validation.
  @Test func agreesWithTheStandardLibrary() {
    for first in 0...255 {
      for second in 0...255 {
        let bytes = [UInt8(first), UInt8(second)]
        #expect(
          isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
      }
    }
    var random = SplitMix64(seed: 3629)
    let interesting: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    for _ in 0..<20000 {
      let bytes = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        interesting.randomElement(using: &random)!
      }
      #expect(isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
  }
}
