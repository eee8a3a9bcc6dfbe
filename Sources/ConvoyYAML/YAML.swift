import Foundation

/// Parses YAML documents into ``YAMLValue`` trees, without any package dependency.
///
/// The parser covers what real OpenAPI and configuration documents use: block and flow
/// collections; plain, single- and double-quoted scalars with escapes; literal (`|`) and folded
/// (`>`) block scalars with chomping and indentation indicators; comments; anchors, aliases and
/// plain `<<` merge keys (a quoted `"<<"` is an ordinary key); `%YAML` directives and explicit
/// `---` / `...` markers. JSON, being YAML's flow style, parses too. Anything else (tags, complex
/// `?` keys, several documents in one stream) is a ``YAMLError`` with its line and column rather
/// than a guess.
///
/// ```swift
/// let data = try Data(contentsOf: URL(fileURLWithPath: "openapi.yaml"))
/// let spec = try YAML.parse(String(decoding: data, as: UTF8.self))
/// ```
public enum YAML {
  /// Parses one document.
  ///
  /// - Parameters:
  ///   - text: The document.
  ///   - limits: Bounds on nesting, alias expansion and size.
  /// - Returns: The document's root node; ``YAMLValue/null`` for an empty document.
  /// - Throws: ``YAMLError`` naming the line and column of the first problem.
  public static func parse(
    _ text: String, limits: YAMLLimits = YAMLLimits()
  ) throws(YAMLError) -> YAMLValue {
    guard text.utf8.count <= limits.maximumDocumentSize else {
      throw YAMLError(.documentTooLarge(limit: limits.maximumDocumentSize), line: 1, column: 1)
    }
    var parser = YAMLParser(bytes: Array(text.utf8), limits: limits)
    return try parser.parseStream()
  }

  /// Parses one document from UTF-8 bytes.
  ///
  /// - Parameters:
  ///   - data: The document, UTF-8 encoded, with or without a byte order mark.
  ///   - limits: Bounds on nesting, alias expansion and size.
  /// - Returns: The document's root node; ``YAMLValue/null`` for an empty document.
  /// - Throws: ``YAMLError`` naming the line and column of the first problem.
  public static func parse(
    _ data: Data, limits: YAMLLimits = YAMLLimits()
  ) throws(YAMLError) -> YAMLValue {
    // Refused before the bytes are copied into text.
    guard data.count <= limits.maximumDocumentSize else {
      throw YAMLError(.documentTooLarge(limit: limits.maximumDocumentSize), line: 1, column: 1)
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      throw YAMLError(.invalidUTF8, line: 1, column: 1)
    }
    return try parse(text, limits: limits)
  }
}
