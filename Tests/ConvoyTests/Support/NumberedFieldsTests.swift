import Foundation
import Testing

@testable import Convoy

/// The binary record form: every value comes back exactly, versions before and after read each
/// other's fields, and damaged bytes throw, never read past the end.
@Suite struct NumberedFieldsTests {
  @Test func everyKindOfValueComesBackExactly() throws {
    let id = UUID()
    let date = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456)
    var writer = NumberedFieldsWriter()
    writer.append(1, id)
    writer.append(2, "Grüße, 世界")
    writer.append(3, 0)
    writer.append(4, Int.max)
    writer.append(5, Int.min)
    writer.append(6, -1)
    writer.append(7, 0.1)
    writer.append(8, -Double.infinity)
    writer.append(9, true)
    writer.append(10, date)
    writer.append(11, bytes: [0, 255, 128])
    let fields = try NumberedFields(writer.bytes)
    #expect(try fields.uuid(1) == id)
    #expect(try fields.string(2) == "Grüße, 世界")
    #expect(try fields.int(3) == 0)
    #expect(try fields.int(4) == Int.max)
    #expect(try fields.int(5) == Int.min)
    #expect(try fields.int(6) == -1)
    #expect(try fields.double(7) == 0.1)
    #expect(try fields.double(8) == -Double.infinity)
    #expect(try fields.bool(9) == true)
    #expect(try fields.date(10) == date)
    #expect(fields.bytes(11).map(Array.init) == [0, 255, 128])
  }

  @Test func smallNumbersTakeOneByte() {
    var writer = NumberedFieldsWriter()
    writer.append(3, 5)
    // Number, length, value.
    #expect(writer.bytes == [3, 1, 5])
  }

  @Test func repeatedAndNestedFieldsComeBackInOrder() throws {
    var writer = NumberedFieldsWriter()
    for name in ["first", "second", "third"] {
      var element = NumberedFieldsWriter()
      element.append(1, name)
      writer.append(2, element)
    }
    let names = try NumberedFields(writer.bytes).allFields(2).map { try $0.string(1) }
    #expect(names == ["first", "second", "third"])
  }

  @Test func fieldsANewerVersionWroteAreSkippedAndAbsentOnesAreNil() throws {
    var newer = NumberedFieldsWriter()
    newer.append(1, "kept")
    newer.append(300, bytes: Array(repeating: 7, count: 200))
    newer.append(2, 42)
    let fields = try NumberedFields(newer.bytes)
    #expect(try fields.string(1) == "kept")
    #expect(try fields.int(2) == 42)
    #expect(try fields.int(3) == nil)
    #expect(throws: NumberedFields.Malformed.self) { try fields.required(fields.int(3), 3) }
  }

  @Test func aFieldOfTheWrongShapeThrows() throws {
    var writer = NumberedFieldsWriter()
    writer.append(1, bytes: [1, 2, 3])
    writer.append(2, bytes: [0xFF, 0xFE])
    writer.append(3, bytes: [2])
    let fields = try NumberedFields(writer.bytes)
    #expect(throws: NumberedFields.Malformed.self) { try fields.uuid(1) }
    #expect(throws: NumberedFields.Malformed.self) { try fields.double(1) }
    #expect(throws: NumberedFields.Malformed.self) { try fields.string(2) }
    #expect(throws: NumberedFields.Malformed.self) { try fields.bool(3) }
    // A field of two bytes that both say "more follows": a varint cut off.
    #expect(throws: NumberedFields.Malformed.self) {
      try NumberedFields([1, 2, 0x80, 0x80]).int(1)
    }
  }

  @Test func varintsOverSixtyFourBitsOrCutOffThrow() {
    // Eleven continuation bytes: more than 64 bits.
    #expect(throws: NumberedFields.Malformed.self) {
      try NumberedFields(Array(repeating: 0xFF, count: 11) + [1, 0])
    }
    // The tenth byte may hold the 64th bit only.
    #expect(throws: NumberedFields.Malformed.self) {
      try NumberedFields([1] + Array(repeating: 0xFF, count: 9) + [2])
    }
    #expect(throws: NumberedFields.Malformed.self) { try NumberedFields([1, 0x80]) }
  }

  @Test func aLengthPastTheEndThrows() {
    #expect(throws: NumberedFields.Malformed.self) { try NumberedFields([1, 5, 0, 0]) }
    // A length near 2^64 must not wrap around into a small range.
    #expect(throws: NumberedFields.Malformed.self) {
      try NumberedFields([1] + Array(repeating: 0xFF, count: 9) + [1, 0])
    }
  }

  @Test func bytesCutAtEveryPositionOrFlippedAtEveryBitNeverCrash() {
    var writer = NumberedFieldsWriter()
    writer.append(1, UUID())
    writer.append(2, "a string of some length")
    var nested = NumberedFieldsWriter()
    nested.append(1, 1_000_000)
    nested.append(2, 2.5)
    writer.append(3, nested)
    let bytes = writer.bytes
    func readEverything(_ bytes: [UInt8]) {
      guard let fields = try? NumberedFields(bytes) else { return }
      _ = try? fields.uuid(1)
      _ = try? fields.string(2)
      _ = try? fields.fields(3)?.int(1)
      _ = try? fields.fields(3)?.double(2)
    }
    for cut in 0..<bytes.count { readEverything(Array(bytes[..<cut])) }
    for index in bytes.indices {
      for bit in 0..<8 {
        var flipped = bytes
        flipped[index] ^= 1 << bit
        readEverything(flipped)
      }
    }
  }
}
