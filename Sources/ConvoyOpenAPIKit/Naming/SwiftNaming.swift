/// Turns names from a document into Swift identifiers.
enum SwiftNaming {
  /// Words Swift reserves; a property or case with such a name is written in backticks.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
    "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false",
    "is", "nil", "super", "self", "Self", "throws", "true", "try", "Any", "Protocol", "Type",
    "some", "any", "await", "consume", "copy", "borrowing", "consuming", "package", "async",
  ]

  /// Type names the generated code uses itself, so a schema may not take them.
  static let reservedTypeNames: Set<String> = [
    "String", "Int", "Int32", "Int64", "Double", "Float", "Bool", "Date", "Data", "URL", "UUID",
    "Array", "Dictionary", "Optional", "Error", "Decoder", "Encoder", "Codable", "Hashable",
    "Sendable", "Response", "Any", "Type", "Self", "Protocol", "JSONValue", "Indirect",
    "CalendarDate", "URLQueryItem", "HTTPHeaders", "RequestBody", "JSONResponse",
    "EmptyResponse", "DataResponse", "Foundation", "Convoy", "Swift", "Set", "Character",
    "Result", "Never", "Void", "CodingKeys", "Task", "DateCoding", "AnyKey",
  ]

  /// Members a `String`-backed `CodingKey` enum has already, so no case may take their names.
  static let codingKeyMembers: Set<String> = [
    "rawValue", "stringValue", "intValue", "hashValue", "description", "debugDescription",
    "allCases", "init", "hash",
  ]

  /// Members every generated struct has already (`Hashable`), so no property may take them.
  static let structMembers: Set<String> = ["CodingKeys", "hashValue"]

  /// The words of a name: split at non-alphanumerics and at lower-to-upper case changes.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previous: Character?
    for character in name {
      if !(character.isLetter || character.isNumber) || !character.isASCII {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
        words.append(current)
        current = String(character)
      } else {
        current.append(character)
      }
      previous = character
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// `UpperCamelCase`, for types.
  static func typeName(_ name: String) -> String {
    var result = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    if result.isEmpty { result = "Value" }
    if result.first!.isNumber { result = "_" + result }
    if reservedTypeNames.contains(result) { result += "Model" }
    return result
  }

  /// `lowerCamelCase`, for properties, parameters, cases and functions; not escaped.
  static func memberName(_ name: String) -> String {
    let parts = words(name)
    guard let first = parts.first else { return "value" }
    var result =
      lowerFirstWord(first)
      + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    if result.first!.isNumber { result = "_" + result }
    // These cannot be used even in backticks after a dot (`.init`, `.self`).
    if ["self", "Self", "init", "Type", "Protocol", "super"].contains(result) { result += "Value" }
    return result
  }

  /// Lowercases a leading word, keeping an acronym's case pattern sensible (`URLPath` → `urlPath`).
  private static func lowerFirstWord(_ word: String) -> String {
    if word.allSatisfy({ $0.isUppercase || $0.isNumber }) { return word.lowercased() }
    return word.prefix(1).lowercased() + word.dropFirst()
  }

  /// A member name as it must be written in declarations and references.
  static func escaped(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// A member name as an argument label in a call: a keyword needs no backticks there (Swift
  /// warns about them), except the three that would read as a parameter's specifier.
  static func argumentLabel(_ name: String) -> String {
    ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
  }

  /// A Swift string literal's contents for `text`.
  static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// Makes names unique within one scope by appending numbers.
  struct Registry {
    private var used: Set<String>

    init(reserved: Set<String> = []) { used = reserved }

    /// Whether `name` is taken.
    func contains(_ name: String) -> Bool { used.contains(name) }

    mutating func unique(_ name: String) -> String {
      var candidate = name
      var number = 2
      while used.contains(candidate) {
        candidate = name + String(number)
        number += 1
      }
      used.insert(candidate)
      return candidate
    }
  }
}
