// Writes a parsed tree back as YAML in two forms, flow (`{"a": [1, 2]}`) and block (indented
// lines), so the fuzz target can check that both forms of the same document read the same.
import ConvoyYAML

enum YAMLWriter {
  static func flow(_ value: YAMLValue) -> String {
    switch value {
    case .array(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
    case .mapping(let mapping):
      "{" + mapping.map { quoted($0.key) + ": " + flow($0.value) }.joined(separator: ", ") + "}"
    default: scalar(value)
    }
  }

  static func block(_ value: YAMLValue) -> String {
    var lines: [String] = []
    block(value, indent: 0, into: &lines)
    return lines.joined(separator: "\n") + "\n"
  }

  private static func block(_ value: YAMLValue, indent: Int, into lines: inout [String]) {
    let pad = String(repeating: " ", count: indent)
    switch value {
    case .array(let items) where !items.isEmpty:
      for item in items {
        if isNonEmptyCollection(item) {
          lines.append(pad + "-")
          block(item, indent: indent + 2, into: &lines)
        } else {
          lines.append(pad + "- " + flow(item))
        }
      }
    case .mapping(let mapping) where !mapping.isEmpty:
      for (key, item) in mapping {
        if isNonEmptyCollection(item) {
          lines.append(pad + quoted(key) + ":")
          block(item, indent: indent + 2, into: &lines)
        } else {
          lines.append(pad + quoted(key) + ": " + flow(item))
        }
      }
    default:
      lines.append(pad + flow(value))
    }
  }

  private static func isNonEmptyCollection(_ value: YAMLValue) -> Bool {
    switch value {
    case .array(let items): !items.isEmpty
    case .mapping(let mapping): !mapping.isEmpty
    default: false
    }
  }

  private static func scalar(_ value: YAMLValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let bool): bool ? "true" : "false"
    case .integer(let integer): String(integer)
    case .double(let double):
      double.isNaN ? ".nan" : double.isInfinite ? (double < 0 ? "-.inf" : ".inf") : "\(double)"
    case .string(let string): quoted(string)
    case .array, .mapping: flow(value)
    }
  }

  /// A double-quoted scalar; everything that is not printable is escaped.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
          || value == 0xFEFF || value == 0xFFFE || value == 0xFFFF
        {
          let hex = String(value, radix: 16, uppercase: true)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
