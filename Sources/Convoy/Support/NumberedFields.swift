import Foundation

/// A compact binary form for records that outlive the version of the app that wrote them: a
/// sequence of fields, each its number, its length and its bytes (number and length as
/// unsigned LEB128 varints).
///
/// A reader looks fields up by number: it skips numbers it does not know (a newer version wrote
/// them) and gives its own default for numbers that are absent (an older version did not write
/// them), so that either side of an update reads the other's records. This is the idea of the
/// protocol-buffers wire format, with every field length-delimited. A field may repeat: a list
/// is its elements in order under one number.
///
/// Why not JSON: a record is read back by this code only, and reading JSON through `Codable`
/// costs a keyed container per object and a Base64 pass per `Data`; this form is read with one
/// pass over the bytes and no copies of them.
package struct NumberedFieldsWriter: Sendable {
  /// The fields written so far.
  package private(set) var bytes: [UInt8] = []

  package init() {}

  /// Appends field `number` holding `value` as it is.
  package mutating func append(_ number: Int, bytes value: some Collection<UInt8>) {
    appendVarint(UInt64(number))
    appendVarint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  /// Appends field `number` holding the fields `value` wrote.
  package mutating func append(_ number: Int, _ value: NumberedFieldsWriter) {
    append(number, bytes: value.bytes)
  }

  package mutating func append(_ number: Int, _ value: String) {
    append(number, bytes: value.utf8)
  }

  package mutating func append(_ number: Int, _ value: UUID) {
    withUnsafeBytes(of: value.uuid) { append(number, bytes: $0) }
  }

  /// Appends `value` as the varint of its bit pattern: small counts take one byte.
  package mutating func append(_ number: Int, _ value: Int) {
    var varint = NumberedFieldsWriter()
    varint.appendVarint(UInt64(bitPattern: Int64(value)))
    append(number, bytes: varint.bytes)
  }

  /// Appends `value`'s bit pattern, little-endian: every `Double` comes back exactly.
  package mutating func append(_ number: Int, _ value: Double) {
    withUnsafeBytes(of: value.bitPattern.littleEndian) { append(number, bytes: $0) }
  }

  package mutating func append(_ number: Int, _ value: Bool) {
    append(number, bytes: CollectionOfOne(value ? 1 : 0))
  }

  /// Appends `value` as seconds since 2001-01-01, as a `Double`.
  package mutating func append(_ number: Int, _ value: Date) {
    append(number, value.timeIntervalSinceReferenceDate)
  }

  private mutating func appendVarint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }
}

/// Fields written by a ``NumberedFieldsWriter``, looked up by number.
///
/// Reading checks every length against the bytes there are: damaged or hostile bytes throw
/// ``Malformed``, never read past the end.
package struct NumberedFields: Sendable {
  /// Bytes that are not fields as this reader expects them.
  package struct Malformed: Error, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
      self.description = description
    }
  }

  private let bytes: ArraySlice<UInt8>
  /// Each field's number and where its bytes are in `bytes`, in the order written.
  private let fields: [(number: Int, range: Range<Int>)]

  /// Reads the fields of `bytes`.
  ///
  /// - Throws: ``Malformed`` when a number or length is cut off or too large, or a field runs
  ///   past the end.
  package init(_ bytes: ArraySlice<UInt8>) throws(Malformed) {
    var fields: [(number: Int, range: Range<Int>)] = []
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
      let number = try Self.varint(in: bytes, at: &offset)
      let length = try Self.varint(in: bytes, at: &offset)
      guard number <= UInt64(Int32.max), length <= UInt64(bytes.endIndex - offset) else {
        throw Malformed("field \(number) of \(length) bytes runs past the record's end")
      }
      fields.append((Int(number), offset..<(offset + Int(length))))
      offset += Int(length)
    }
    self.bytes = bytes
    self.fields = fields
  }

  /// Reads the fields of `bytes`.
  package init(_ bytes: [UInt8]) throws(Malformed) {
    try self.init(bytes[...])
  }

  /// The bytes of the first field `number`, or `nil` when there is none.
  package func bytes(_ number: Int) -> ArraySlice<UInt8>? {
    fields.first { $0.number == number }.map { bytes[$0.range] }
  }

  /// The bytes of every field `number`, in the order written.
  package func allBytes(_ number: Int) -> [ArraySlice<UInt8>] {
    fields.lazy.filter { $0.number == number }.map { bytes[$0.range] }
  }

  package func fields(_ number: Int) throws(Malformed) -> NumberedFields? {
    guard let field = bytes(number) else { return nil }
    return try NumberedFields(field)
  }

  /// The fields of every field `number`, in the order written: a list.
  package func allFields(_ number: Int) throws(Malformed) -> [NumberedFields] {
    var all: [NumberedFields] = []
    for field in allBytes(number) { all.append(try NumberedFields(field)) }
    return all
  }

  package func string(_ number: Int) throws(Malformed) -> String? {
    guard let field = bytes(number) else { return nil }
    guard let string = String(bytes: field, encoding: .utf8) else {
      throw Malformed("field \(number) is not UTF-8")
    }
    return string
  }

  package func uuid(_ number: Int) throws(Malformed) -> UUID? {
    guard let field = bytes(number) else { return nil }
    guard field.count == 16 else { throw Malformed("field \(number) is not 16 bytes") }
    var value = UUID().uuid
    withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: field) }
    return UUID(uuid: value)
  }

  package func int(_ number: Int) throws(Malformed) -> Int? {
    guard let field = bytes(number) else { return nil }
    var offset = field.startIndex
    let value = try Self.varint(in: field, at: &offset)
    guard offset == field.endIndex, let int = Int(exactly: Int64(bitPattern: value)) else {
      throw Malformed("field \(number) is not one integer")
    }
    return int
  }

  package func double(_ number: Int) throws(Malformed) -> Double? {
    guard let field = bytes(number) else { return nil }
    guard field.count == 8 else { throw Malformed("field \(number) is not 8 bytes") }
    let pattern = field.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return Double(bitPattern: pattern)
  }

  package func bool(_ number: Int) throws(Malformed) -> Bool? {
    guard let field = bytes(number) else { return nil }
    guard field.count == 1, let byte = field.first, byte <= 1 else {
      throw Malformed("field \(number) is not a Boolean")
    }
    return byte == 1
  }

  package func date(_ number: Int) throws(Malformed) -> Date? {
    try double(number).map(Date.init(timeIntervalSinceReferenceDate:))
  }

  /// `value`, or ``Malformed`` saying field `number` is missing: for fields every version
  /// writes.
  package func required<Value>(_ value: Value?, _ number: Int) throws(Malformed) -> Value {
    guard let value else { throw Malformed("field \(number) is missing") }
    return value
  }

  /// Reads an unsigned LEB128 varint at `offset` and moves past it.
  private static func varint(in bytes: ArraySlice<UInt8>, at offset: inout Int) throws(Malformed)
    -> UInt64
  {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.endIndex {
      let byte = bytes[offset]
      offset += 1
      // The tenth byte holds the 64th bit only.
      guard shift < 63 || byte <= 1 else { throw Malformed("a varint is over 64 bits") }
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    throw Malformed("a varint is cut off")
  }
}
