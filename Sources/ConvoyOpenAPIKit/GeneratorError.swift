/// Why nothing could be generated.
public enum GeneratorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The document is not YAML or JSON; the text names the line and column.
  case unreadableDocument(String)
  /// The document parses but is not an OpenAPI 3.0 or 3.1 document.
  case unsupportedDocument(String)
  /// The configuration file is malformed.
  case unreadableConfiguration(String)
  /// A namespace that is not a Swift identifier.
  case invalidNamespace(String)

  /// The reason, for people.
  public var description: String {
    switch self {
    case .unreadableDocument(let detail): "the document cannot be read: \(detail)"
    case .unsupportedDocument(let detail): "the document is not supported: \(detail)"
    case .unreadableConfiguration(let detail): "the configuration cannot be read: \(detail)"
    case .invalidNamespace(let name): "'\(name)' cannot be a namespace: use a Swift type name"
    }
  }
}
