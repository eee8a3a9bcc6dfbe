/// The Swift type a schema becomes, as used in a property, parameter or response.
indirect enum TypeRef: Hashable {
  case string
  case integer
  case int32
  case int64
  case double
  case float
  case bool
  case dateTime
  case date
  case uuid
  case url
  case data
  case json
  /// A generated type, by its full name from the namespace (`Article`, `Article.Author`).
  case named(String)
  case array(TypeRef)
  case dictionary(TypeRef)

  /// The type as written in generated code; generated types are qualified with the namespace.
  func swift(_ namespace: String) -> String {
    switch self {
    case .string: "String"
    case .integer: "Int"
    case .int32: "Int32"
    case .int64: "Int64"
    case .double: "Double"
    case .float: "Float"
    case .bool: "Bool"
    case .dateTime: "Date"
    case .date: "\(namespace).CalendarDate"
    case .uuid: "UUID"
    case .url: "URL"
    case .data: "Data"
    case .json: "\(namespace).JSONValue"
    case .named(let name): "\(namespace).\(name)"
    case .array(let element): "[\(element.swift(namespace))]"
    case .dictionary(let value): "[String: \(value.swift(namespace))]"
    }
  }

  /// An expression turning `value` (of this type) into parameter text, or `nil` for types that
  /// have none (collections, objects).
  func textExpression(_ value: String, namespace: String, enums: Set<String>) -> String? {
    switch self {
    case .string: value
    case .integer, .int32, .int64, .double, .float: "String(\(value))"
    case .bool: "(\(value) ? \"true\" : \"false\")"
    case .dateTime: "\(namespace).DateCoding.string(from: \(value))"
    case .date: "\(value).description"
    case .uuid: "\(value).uuidString"
    case .url: "\(value).absoluteString"
    case .data: "\(value).base64EncodedString()"
    case .named(let name) where enums.contains(name): "\(value).rawValue"
    case .named, .json, .array, .dictionary: nil
    }
  }

  /// An expression turning `value` into a Convoy `FormValue`, or `nil` when there is none.
  func formExpression(_ value: String, namespace: String, enums: Set<String>) -> String? {
    switch self {
    case .string: return ".string(\(value))"
    case .integer: return ".integer(\(value))"
    case .int32, .int64: return ".integer(Int(\(value)))"
    case .double: return ".double(\(value))"
    case .float: return ".double(Double(\(value)))"
    case .bool: return ".bool(\(value))"
    case .array(let element):
      guard let inner = element.formExpression("$0", namespace: namespace, enums: enums) else {
        return nil
      }
      return ".array(\(value).map { \(inner) })"
    default:
      return textExpression(value, namespace: namespace, enums: enums).map { ".string(\($0))" }
    }
  }
}
