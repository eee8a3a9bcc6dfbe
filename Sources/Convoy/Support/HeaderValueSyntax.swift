/// The list and parameter syntax shared by `Cache-Control` (RFC 9111 §5.2) and `Link`
/// (RFC 8288 §3): comma- or semicolon-separated items whose quoted strings and `<URI>`
/// references may themselves contain those separators (RFC 9110 §5.6.1, §5.6.4).
enum HeaderValueSyntax {
  /// Splits `value` at `separator` where it is neither inside a quoted string nor inside `<…>`,
  /// trimming whitespace and dropping empty items (RFC 9110 §5.6.1 allows empty list elements).
  static func split(_ value: Substring, separator: Character) -> [Substring] {
    var items: [Substring] = []
    var start = value.startIndex
    var index = value.startIndex
    var inQuotes = false
    var inBrackets = false
    while index < value.endIndex {
      let character = value[index]
      if inQuotes {
        if character == "\\" {
          index = value.index(after: index)
          if index == value.endIndex { break }
        } else if character == "\"" {
          inQuotes = false
        }
      } else if character == "\"" {
        inQuotes = true
      } else if character == "<" {
        inBrackets = true
      } else if character == ">" {
        inBrackets = false
      } else if character == separator, !inBrackets {
        items.append(value[start..<index])
        start = value.index(after: index)
      }
      index = value.index(after: index)
    }
    items.append(value[start..<value.endIndex])
    return items.map(trimmed).filter { !$0.isEmpty }
  }

  /// A `name[=value]` parameter: the name lower-cased (parameter names are case-insensitive),
  /// the value unquoted, or `nil` when there is no `=`.
  static func parameter(_ item: Substring) -> (name: String, value: String?) {
    guard let equals = item.firstIndex(of: "=") else {
      return (String(trimmed(item)).lowercased(), nil)
    }
    let name = String(trimmed(item[..<equals])).lowercased()
    return (name, unquoted(trimmed(item[item.index(after: equals)...])))
  }

  /// The content of a quoted string with its backslash escapes resolved (RFC 9110 §5.6.4), or
  /// the token as it is.
  static func unquoted(_ value: Substring) -> String {
    guard value.count >= 2, value.first == "\"", value.last == "\"" else { return String(value) }
    var result = ""
    var escaping = false
    for character in value.dropFirst().dropLast() {
      if escaping {
        result.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  static func trimmed(_ value: Substring) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = value.firstIndex(where: { !isSpace($0) }),
      let last = value.lastIndex(where: { !isSpace($0) })
    else { return value[value.endIndex...] }
    return value[first...last]
  }
}
