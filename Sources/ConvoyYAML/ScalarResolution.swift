/// Turns a plain scalar's text into a value by YAML 1.2's core schema.
enum ScalarResolution {
  static func resolve(_ text: String) -> YAMLValue {
    switch text {
    case "", "~", "null", "Null", "NULL": return .null
    case "true", "True", "TRUE": return .bool(true)
    case "false", "False", "FALSE": return .bool(false)
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
    case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
    case ".nan", ".NaN", ".NAN": return .double(.nan)
    default: break
    }
    let utf8 = Array(text.utf8)
    guard let first = utf8.first,
      first == .plus || first == .hyphen || first == .period
        || isDigit(first)
    else { return .string(text) }
    if utf8.count > 2, utf8[0] == UInt8(ascii: "0") {
      if utf8[1] == UInt8(ascii: "x"), let value = Int(text.dropFirst(2), radix: 16) {
        return .integer(value)
      }
      if utf8[1] == UInt8(ascii: "o"), let value = Int(text.dropFirst(2), radix: 8) {
        return .integer(value)
      }
    }
    if isInteger(utf8) {
      if let value = Int(text) { return .integer(value) }
      return Double(text).map(YAMLValue.double) ?? .string(text)
    }
    if isFloat(utf8), let value = Double(text) { return .double(value) }
    return .string(text)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// `[-+]?[0-9]+`
  private static func isInteger(_ utf8: [UInt8]) -> Bool {
    let digits = utf8.first == .plus || utf8.first == .hyphen ? utf8.dropFirst() : utf8[...]
    return !digits.isEmpty && digits.allSatisfy(isDigit)
  }

  /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
  private static func isFloat(_ utf8: [UInt8]) -> Bool {
    var rest = utf8.first == .plus || utf8.first == .hyphen ? utf8.dropFirst() : utf8[...]
    let integerDigits = rest.prefix(while: isDigit).count
    rest = rest.dropFirst(integerDigits)
    var fractionDigits = 0
    if rest.first == .period {
      rest = rest.dropFirst()
      fractionDigits = rest.prefix(while: isDigit).count
      rest = rest.dropFirst(fractionDigits)
    }
    guard integerDigits + fractionDigits > 0 else { return false }
    if let marker = rest.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
      rest = rest.dropFirst()
      if rest.first == .plus || rest.first == .hyphen { rest = rest.dropFirst() }
      let exponentDigits = rest.prefix(while: isDigit).count
      guard exponentDigits > 0 else { return false }
      rest = rest.dropFirst(exponentDigits)
    }
    return rest.isEmpty
  }
}
