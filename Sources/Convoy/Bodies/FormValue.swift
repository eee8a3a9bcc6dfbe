/// A value in a form body or query: text, a number, a boolean, or a list or dictionary of them.
///
/// Literals build it directly:
///
/// ```swift
/// let parameters: [String: FormValue] = [
///   "name": "Harbour Café", "rating": 4.5, "open": true,
///   "tags": ["coffee", "wifi"], "address": ["city": "Zürich", "zip": 8001],
/// ]
/// ```
public enum FormValue: Sendable, Hashable {
  /// Text, sent as it is (percent-encoded).
  case string(String)
  /// A whole number.
  case integer(Int)
  /// A number with a fraction, written as Swift prints it (`4.5`, `1e+20`).
  case double(Double)
  /// A boolean, written as ``FormURLEncoder/BoolEncoding`` says.
  case bool(Bool)
  /// A list, its keys written as ``FormURLEncoder/ArrayEncoding`` says.
  case array([FormValue])
  /// Named values, written as `key[name]=value`, names in sorted order.
  case dictionary([String: FormValue])
}

extension FormValue: ExpressibleByStringLiteral {
  /// Creates a ``string(_:)``.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension FormValue: ExpressibleByIntegerLiteral {
  /// Creates an ``integer(_:)``.
  public init(integerLiteral value: Int) {
    self = .integer(value)
  }
}

extension FormValue: ExpressibleByFloatLiteral {
  /// Creates a ``double(_:)``.
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}

extension FormValue: ExpressibleByBooleanLiteral {
  /// Creates a ``bool(_:)``.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension FormValue: ExpressibleByArrayLiteral {
  /// Creates an ``array(_:)``.
  public init(arrayLiteral elements: FormValue...) {
    self = .array(elements)
  }
}

extension FormValue: ExpressibleByDictionaryLiteral {
  /// Creates a ``dictionary(_:)``; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, FormValue)...) {
    self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
