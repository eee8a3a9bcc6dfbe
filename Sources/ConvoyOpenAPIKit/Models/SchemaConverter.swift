import ConvoyYAML

/// Turns JSON Schemas from the document into ``TypeRef``s, collecting the declarations they need.
///
/// Component schemas get their names before any is converted, so references, recursive ones
/// included, resolve to a name without converting anything twice.
struct SchemaConverter {
  let document: OpenAPIDocument
  /// Declarations by full name, and the order they were made in.
  var declarations: [String: TypeDeclaration] = [:]
  var order: [String] = []
  /// Swift full names of component schemas, by their reference (`#/components/schemas/X`).
  private(set) var componentNames: [String: String] = [:]
  var warnings: [GeneratorWarning] = []
  /// Names taken per scope ("" is the namespace itself).
  var registries: [String: SwiftNaming.Registry] = [:]
  /// References being converted inline, to stop a cycle through non-component references.
  private var inlineReferences: Set<String> = []

  init(document: OpenAPIDocument) {
    self.document = document
  }

  /// A name unique in `scope`, derived from `name`.
  mutating func uniqueName(_ name: String, in scope: String) -> String {
    var registry = registries[scope] ?? SwiftNaming.Registry()
    let unique = registry.unique(name)
    registries[scope] = registry
    return unique
  }

  /// Names every component schema, then converts them all.
  mutating func convertComponents(typeNames: [String: String]) {
    guard let schemas = document.root["components"]?["schemas"]?.mapping else { return }
    for (key, _) in schemas {
      let wanted = typeNames[key] ?? SwiftNaming.typeName(key)
      componentNames["#/components/schemas/" + JSONPointer.escape(key)] = uniqueName(wanted, in: "")
    }
    for (key, schema) in schemas {
      let reference = "#/components/schemas/" + JSONPointer.escape(key)
      let name = componentNames[reference]!
      let pointer = ["components", "schemas", key]
      guard document.resolved(schema) != nil else {
        warn(pointer, "this schema's references lead in a circle or to nothing; using JSONValue")
        add(TypeDeclaration(fullName: name, kind: .alias(.json), documentation: nil))
        continue
      }
      let (type, _) = convert(schema, pointer: pointer, name: name, parent: nil, fixedName: name)
      if type != .named(name) {
        add(
          TypeDeclaration(fullName: name, kind: .alias(type), documentation: documentation(schema)))
      }
    }
  }

  /// The type for `schema` and whether `null` is allowed.
  ///
  /// - Parameters:
  ///   - pointer: Where the schema is, for warnings.
  ///   - name: The name an inline type made for this schema gets (made unique in `parent`).
  ///   - parent: The full name of the type an inline type is nested in; `nil` for the namespace.
  ///   - fixedName: The exact full name to give a declaration (for component schemas).
  mutating func convert(
    _ schema: YAMLValue, pointer: [String], name: String, parent: String?,
    fixedName: String? = nil
  ) -> (TypeRef, nullable: Bool) {
    if let reference = schema["$ref"]?.string {
      if let component = componentNames[reference] {
        return (.named(component), schema["nullable"]?.bool == true)
      }
      guard let target = document.node(at: reference), !inlineReferences.contains(reference) else {
        warn(pointer + ["$ref"], "the reference \(reference) cannot be resolved; using JSONValue")
        return (.json, false)
      }
      inlineReferences.insert(reference)
      defer { inlineReferences.remove(reference) }
      return convert(target, pointer: pointer, name: name, parent: parent, fixedName: fixedName)
    }
    guard case .mapping = schema else {
      if schema == .bool(false) {
        warn(pointer, "a 'false' schema is not supported; using JSONValue")
      }
      return (.json, false)
    }
    var nullable = schema["nullable"]?.bool == true
    for keyword in ["not", "if", "patternProperties", "prefixItems"] where schema[keyword] != nil {
      warn(pointer + [keyword], "'\(keyword)' is not supported and is ignored")
    }
    for keyword in ["oneOf", "anyOf"] {
      guard let branches = schema[keyword]?.array else { continue }
      let kept = branches.enumerated().filter { !isNullSchema($0.element) }
      nullable = nullable || kept.count < branches.count
      if kept.count == 1 {
        let (type, innerNullable) = convert(
          kept[0].element, pointer: pointer + [keyword, String(kept[0].offset)], name: name,
          parent: parent, fixedName: fixedName)
        return (type, nullable || innerNullable)
      }
      if kept.isEmpty { return (.json, true) }
      let full = declarationName(name, parent: parent, fixedName: fixedName)
      makeChoice(schema, branches: kept, keyword: keyword, pointer: pointer, fullName: full)
      return (.named(full), nullable)
    }
    if let parts = schema["allOf"]?.array {
      let kept = parts.filter { !isNullSchema($0) }
      if kept.count == 1, schema["properties"] == nil {
        let (type, innerNullable) = convert(
          kept[0], pointer: pointer + ["allOf", "0"], name: name, parent: parent,
          fixedName: fixedName)
        return (type, nullable || innerNullable)
      }
      let full = declarationName(name, parent: parent, fixedName: fixedName)
      makeObject(schema, pointer: pointer, fullName: full)
      return (.named(full), nullable)
    }
    var types = typeNames(schema)
    if types.contains("null") {
      nullable = true
      types.removeAll { $0 == "null" }
    }
    if let values = schema["enum"]?.array ?? schema["const"].map({ [$0] }) {
      let nonNull = values.filter { !$0.isNull }
      nullable = nullable || nonNull.count < values.count
      if schema["const"] != nil, let value = nonNull.first {
        return (value.integer != nil && value.string == nil ? .integer : .string, nullable)
      }
      let full = declarationName(name, parent: parent, fixedName: fixedName)
      if makeEnum(nonNull, schema: schema, pointer: pointer, fullName: full) {
        return (.named(full), nullable)
      }
    }
    if types.count > 1 {
      warn(pointer + ["type"], "a schema of several types is not supported; using JSONValue")
      return (.json, nullable)
    }
    let format = schema["format"]?.string
    switch types.first {
    case "string":
      switch format {
      case "date-time": return (.dateTime, nullable)
      case "date": return (.date, nullable)
      case "uuid": return (.uuid, nullable)
      case "uri", "url": return (.url, nullable)
      case "binary", "byte": return (.data, nullable)
      default:
        if schema["contentMediaType"] != nil || schema["contentEncoding"]?.string == "base64" {
          return (.data, nullable)
        }
        return (.string, nullable)
      }
    case "integer":
      switch format {
      case "int32": return (.int32, nullable)
      case "int64": return (.int64, nullable)
      default: return (.integer, nullable)
      }
    case "number":
      return (format == "float" ? .float : .double, nullable)
    case "boolean":
      return (.bool, nullable)
    case "array":
      guard let items = schema["items"] else { return (.array(.json), nullable) }
      let (element, _) = convert(
        items, pointer: pointer + ["items"], name: name + "Item", parent: parent)
      return (.array(element), nullable)
    case "object", nil:
      if let properties = schema["properties"]?.mapping, !properties.isEmpty {
        let full = declarationName(name, parent: parent, fixedName: fixedName)
        makeObject(schema, pointer: pointer, fullName: full)
        return (.named(full), nullable)
      }
      if let additional = schema["additionalProperties"], case .mapping(let inner) = additional,
        !inner.isEmpty
      {
        let (value, _) = convert(
          additional, pointer: pointer + ["additionalProperties"], name: name + "Value",
          parent: parent)
        return (.dictionary(value), nullable)
      }
      return (.json, nullable)
    case let other?:
      warn(pointer + ["type"], "the type '\(other)' is not supported; using JSONValue")
      return (.json, nullable)
    }
  }

  /// Whether `schema` only allows `null` (`{type: 'null'}`, `{enum: [null]}`).
  private func isNullSchema(_ schema: YAMLValue) -> Bool {
    if schema["type"]?.string == "null" { return true }
    if let values = schema["enum"]?.array, values.allSatisfy(\.isNull), !values.isEmpty {
      return true
    }
    return false
  }

  private func typeNames(_ schema: YAMLValue) -> [String] {
    if let single = schema["type"]?.string { return [single] }
    return schema["type"]?.array?.compactMap(\.string) ?? []
  }

  private mutating func declarationName(_ name: String, parent: String?, fixedName: String?)
    -> String
  {
    if let fixedName { return fixedName }
    let simple = uniqueName(SwiftNaming.typeName(name), in: parent ?? "")
    return parent.map { $0 + "." + simple } ?? simple
  }

  func documentation(_ schema: YAMLValue) -> String? {
    let parts = [schema["title"]?.string, schema["description"]?.string].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: "\n\n")
  }

  mutating func add(_ declaration: TypeDeclaration) {
    if declarations[declaration.fullName] == nil { order.append(declaration.fullName) }
    declarations[declaration.fullName] = declaration
  }

  mutating func warn(_ pointer: [String], _ message: String) {
    warnings.append(GeneratorWarning(pointer: JSONPointer.make(pointer), message: message))
  }
}
