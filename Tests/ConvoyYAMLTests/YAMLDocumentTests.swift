import ConvoyYAML
import Foundation
import Testing

/// Whole documents: what JSON parsers make of JSON, and a YAML OpenAPI document in the shape
/// drf-spectacular writes.
@Suite struct YAMLDocumentTests {
  private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")

  /// The value JSONSerialization makes, as a YAMLValue (keys sorted, since it loses order).
  private func converted(_ object: Any) -> YAMLValue {
    switch object {
    case is NSNull: return .null
    case let number as NSNumber:
      // Booleans come as numbers of Objective-C type "c" (char).
      if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
      if let integer = Int(exactly: number.doubleValue), !"\(number)".contains(".") {
        return .integer(integer)
      }
      return .double(number.doubleValue)
    case let text as String: return .string(text)
    case let array as [Any]: return .array(array.map(converted))
    case let dictionary as [String: Any]:
      return .mapping(
        YAMLMapping(dictionary.keys.sorted().map { ($0, converted(dictionary[$0]!)) }))
    default: return .null
    }
  }

  private func sorted(_ value: YAMLValue) -> YAMLValue {
    switch value {
    case .array(let items): return .array(items.map(sorted))
    case .mapping(let mapping):
      return .mapping(YAMLMapping(mapping.keys.sorted().map { ($0, sorted(mapping[$0]!)) }))
    default: return value
    }
  }

  @Test func jsonParsesAsJSONSerializationReadsIt() throws {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("zoo.json"))
    let reference = converted(try JSONSerialization.jsonObject(with: data))
    #expect(sorted(try YAML.parse(data)) == reference)
  }

  @Test func aYAMLOpenAPIDocumentParsesInOrder() throws {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("articles.yaml"))
    let document = try YAML.parse(data)
    #expect(document["openapi"] == .string("3.0.3"))
    #expect(document["paths"]?.mapping?.keys == ["/articles", "/articles/{id}", "/raw"])
    let status = document["components"]?["schemas"]?["Status"]?["enum"]
    #expect(status == .array(["draft", "published", "in-review"].map(YAMLValue.string)))
    let responses = document["paths"]?["/articles"]?["get"]?["responses"]?.mapping?.keys
    #expect(responses == ["200", "422"])
  }
}
