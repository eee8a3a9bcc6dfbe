/// A parsed YAML node, in the shape JSON has: what OpenAPI documents and configuration files
/// need, whether they were written as YAML or as JSON.
///
/// Plain scalars are resolved with YAML 1.2's core schema (`null`, `true`, `12`, `0x1F`, `1.5e3`,
/// `.inf`); quoted and block scalars are always strings. Mapping keys are strings: a plain key
/// such as `200` keeps the text it was written with.
///
/// ```swift
/// let document = try YAML.parse("paths:\n  /articles: {get: {operationId: list}}")
/// let id = document["paths"]?["/articles"]?["get"]?["operationId"]?.string  // "list"
/// ```
public enum YAMLValue: Sendable, Hashable {
  /// `null`, `~` or nothing at all.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number that fits in `Int`.
  case integer(Int)
  /// A number with a fraction or an exponent, or a whole number too large for `Int`.
  case double(Double)
  /// Text.
  case string(String)
  /// A sequence.
  case array([YAMLValue])
  /// A mapping, its keys in document order.
  case mapping(YAMLMapping)

  /// The value under `key` when this is a mapping.
  public subscript(key: String) -> YAMLValue? {
    if case .mapping(let mapping) = self { return mapping[key] }
    return nil
  }

  /// The element at `index` when this is a sequence that long.
  public subscript(index: Int) -> YAMLValue? {
    if case .array(let elements) = self, elements.indices.contains(index) {
      return elements[index]
    }
    return nil
  }

  /// The text of a string.
  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value of a boolean.
  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The value of an integer, or of a double without a fraction that fits in `Int`.
  public var integer: Int? {
    switch self {
    case .integer(let value): return value
    case .double(let value): return Int(exactly: value)
    default: return nil
    }
  }

  /// The value of any number.
  public var double: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  /// The elements of a sequence.
  public var array: [YAMLValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }

  /// The entries of a mapping.
  public var mapping: YAMLMapping? {
    if case .mapping(let mapping) = self { return mapping }
    return nil
  }

  /// Whether this is ``null``.
  public var isNull: Bool { self == .null }

  /// A scalar as text, the way it would read in a document: strings as they are, numbers and
  /// booleans printed, `null` as `"null"`; `nil` for collections.
  public var scalarText: String? {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .integer(let value): String(value)
    case .double(let value): String(value)
    case .string(let text): text
    case .array, .mapping: nil
    }
  }
}
