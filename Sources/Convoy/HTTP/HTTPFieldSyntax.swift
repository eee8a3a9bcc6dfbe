/// What may go on the wire as a header field (RFC 9110 §5.1, §5.5).
///
/// A name is a token; a value holds no CR, LF or NUL. Anything else either vanishes in one
/// transport and reaches the server in another, or lets a value start a line of its own.
enum HTTPFieldSyntax {
  /// Whether `name` is an HTTP token: one or more of the visible ASCII letters, digits and
  /// ``tokenSymbols``.
  static func isValidName(_ name: String) -> Bool {
    !name.utf8.isEmpty && name.utf8.allSatisfy(isTokenCharacter)
  }

  /// Whether `value` can be sent as it is: no line break or NUL that a transport would either
  /// drop the field for or write as a second line.
  static func isValidValue(_ value: String) -> Bool {
    !value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
  }

  /// The symbols `tchar` allows besides letters and digits (RFC 9110 §5.6.2).
  static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

  /// Whether `byte` is RFC 9110 §5.6.2's `tchar`.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "A")...UInt8(ascii: "Z"):
      true
    default:
      tokenSymbols.contains(byte)
    }
  }
}
