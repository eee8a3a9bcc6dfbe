import ConvoyYAML
import Foundation

/// An OpenAPI 3.0 or 3.1 document as a tree, with `$ref` resolution.
struct OpenAPIDocument {
  let root: YAMLValue

  /// Whether the document is 3.1 (JSON Schema 2020-12: `type: [..., "null"]`, `const`).
  var isVersion31: Bool { root["openapi"]?.scalarText?.hasPrefix("3.1") == true }

  /// The node a local reference (`#/components/schemas/Article`) points at.
  func node(at reference: String) -> YAMLValue? {
    guard reference.hasPrefix("#") else { return nil }
    var current: YAMLValue? = root
    for token in JSONPointer.tokens(of: String(reference.dropFirst())) {
      if let index = Int(token), case .array = current {
        current = current?[index]
      } else {
        current = current?[token]
      }
      if current == nil { return nil }
    }
    return current
  }

  /// Follows `$ref` chains from `node` to an object without one; `nil` for a cycle of
  /// references or a reference to nothing.
  func resolved(_ node: YAMLValue) -> YAMLValue? {
    var current = node
    var seen: Set<String> = []
    while let reference = current["$ref"]?.string {
      guard seen.insert(reference).inserted, let next = self.node(at: reference) else { return nil }
      current = next
    }
    return current
  }
}

/// RFC 6901 JSON pointers, used to name places in the document in warnings.
enum JSONPointer {
  /// `#/a/b~1c` for the tokens `a`, `b/c`.
  static func make(_ tokens: [String]) -> String {
    "#" + tokens.map { "/" + escape($0) }.joined()
  }

  static func escape(_ token: String) -> String {
    token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }

  static func tokens(of pointer: String) -> [String] {
    pointer.split(separator: "/", omittingEmptySubsequences: true).map {
      let token = String($0).replacingOccurrences(of: "~1", with: "/")
        .replacingOccurrences(of: "~0", with: "~")
      return token.removingPercentEncoding ?? token
    }
  }
}
