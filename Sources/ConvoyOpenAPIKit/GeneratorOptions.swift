import ConvoyYAML

/// What to generate and how to name it.
///
/// ```swift
/// var options = GeneratorOptions(namespace: "API")
/// options.selection.tags = ["articles"]
/// options.typeNames = ["Article": "Post"]
/// ```
public struct GeneratorOptions: Sendable, Hashable {
  /// The access level of the generated declarations.
  public enum Access: String, Sendable, Hashable {
    /// `public`: for generated code in a library others import.
    case `public`
    /// `internal`: for generated code used only in its own module.
    case `internal`
  }

  /// Which operations to generate. Every operation is selected by default.
  public struct Selection: Sendable, Hashable {
    /// Only operations with at least one of these tags, unless empty.
    public var tags: Set<String> = []
    /// Only operations with these `operationId`s (in addition to those selected by tag when
    /// ``tags`` is set), unless empty.
    public var operationIDs: Set<String> = []
    /// Operations left out even when selected otherwise.
    public var excludedOperationIDs: Set<String> = []

    /// Selects every operation.
    public init() {}

    /// Whether an operation with this id and these tags is generated.
    public func includes(operationID: String?, tags operationTags: [String]) -> Bool {
      if let operationID, excludedOperationIDs.contains(operationID) { return false }
      if tags.isEmpty && operationIDs.isEmpty { return true }
      if !tags.isDisjoint(with: operationTags) { return true }
      if let operationID, operationIDs.contains(operationID) { return true }
      return false
    }
  }

  /// The enum every generated type lives in, such as `API`.
  public var namespace: String
  /// The access level of generated declarations.
  public var access: Access
  /// Which operations to generate.
  public var selection: Selection
  /// Swift type names for component schemas, by schema name.
  public var typeNames: [String: String]

  /// Creates options.
  public init(
    namespace: String = "API", access: Access = .public, selection: Selection = Selection(),
    typeNames: [String: String] = [:]
  ) {
    self.namespace = namespace
    self.access = access
    self.selection = selection
    self.typeNames = typeNames
  }

  /// Applies a configuration file, YAML or JSON:
  ///
  /// ```yaml
  /// namespace: API
  /// access: internal
  /// tags: [articles]
  /// operations: [listArticles]
  /// exclude: [deleteEverything]
  /// typeNames: {Article: Post}
  /// ```
  ///
  /// - Throws: ``GeneratorError`` for a file that cannot be parsed or has unknown keys.
  public mutating func apply(configuration text: String) throws(GeneratorError) {
    let root: YAMLValue
    do {
      root = try YAML.parse(text)
    } catch {
      throw .unreadableConfiguration(error.description)
    }
    guard let mapping = root.mapping else {
      throw .unreadableConfiguration("the configuration must be a mapping")
    }
    for (key, value) in mapping {
      switch key {
      case "namespace":
        guard let name = value.string else {
          throw .unreadableConfiguration("namespace must be text")
        }
        namespace = name
      case "access":
        guard let access = value.string.flatMap(Access.init(rawValue:)) else {
          throw .unreadableConfiguration("access must be public or internal")
        }
        self.access = access
      case "tags": selection.tags = try strings(value, key)
      case "operations": selection.operationIDs = try strings(value, key)
      case "exclude": selection.excludedOperationIDs = try strings(value, key)
      case "typeNames":
        guard let names = value.mapping else {
          throw .unreadableConfiguration("typeNames must be a mapping")
        }
        for (schema, name) in names {
          guard let name = name.string else {
            throw .unreadableConfiguration("typeNames.\(schema) must be text")
          }
          typeNames[schema] = name
        }
      default:
        throw .unreadableConfiguration("unknown key '\(key)'")
      }
    }
  }

  private func strings(_ value: YAMLValue, _ key: String) throws(GeneratorError) -> Set<String> {
    guard let list = value.array, list.allSatisfy({ $0.string != nil }) else {
      throw .unreadableConfiguration("\(key) must be a list of names")
    }
    return Set(list.compactMap(\.string))
  }
}
