import ConvoyYAML

extension SchemaConverter {
  /// Makes a struct from `properties`, merging `allOf` parts (referenced or inline).
  mutating func makeObject(_ schema: YAMLValue, pointer: [String], fullName: String) {
    // Claimed first, so that a property referring back to this type finds it.
    add(
      TypeDeclaration(fullName: fullName, kind: .object([]), documentation: documentation(schema)))
    var collected: [(json: String, schema: YAMLValue, pointer: [String])] = []
    var required: Set<String> = []
    var seen: Set<String> = []
    collectProperties(
      schema, pointer: pointer, into: &collected, required: &required, seen: &seen, depth: 0)
    var names = SwiftNaming.Registry(reserved: SwiftNaming.structMembers)
    var properties: [TypeDeclaration.Property] = []
    for entry in collected {
      let (type, nullable) = convert(
        entry.schema, pointer: entry.pointer, name: entry.json, parent: fullName)
      properties.append(
        TypeDeclaration.Property(
          jsonName: entry.json, swiftName: names.unique(SwiftNaming.memberName(entry.json)),
          type: type, isRequired: required.contains(entry.json), isNullable: nullable,
          documentation: documentation(document.resolved(entry.schema) ?? entry.schema)))
    }
    add(
      TypeDeclaration(
        fullName: fullName, kind: .object(properties), documentation: documentation(schema)))
  }

  private mutating func collectProperties(
    _ schema: YAMLValue, pointer: [String],
    into collected: inout [(json: String, schema: YAMLValue, pointer: [String])],
    required: inout Set<String>, seen: inout Set<String>, depth: Int
  ) {
    guard depth < 32, let resolved = document.resolved(schema) else {
      warn(pointer, "this allOf part cannot be resolved and is left out")
      return
    }
    if let reference = schema["$ref"]?.string {
      // A part that appears twice (diamond-shaped allOf) adds its properties once.
      guard seen.insert(reference).inserted else { return }
    }
    let base =
      schema["$ref"]?.string.map { JSONPointer.tokens(of: String($0.dropFirst())) } ?? pointer
    for (index, part) in (resolved["allOf"]?.array ?? []).enumerated() {
      collectProperties(
        part, pointer: base + ["allOf", String(index)], into: &collected, required: &required,
        seen: &seen, depth: depth + 1)
    }
    for keyword in ["oneOf", "anyOf"] where resolved[keyword] != nil && depth > 0 {
      warn(base + [keyword], "'\(keyword)' inside allOf is not supported and is ignored")
    }
    for (key, property) in resolved["properties"]?.mapping ?? YAMLMapping() {
      if let existing = collected.firstIndex(where: { $0.json == key }) {
        collected[existing] = (key, property, base + ["properties", key])
      } else {
        collected.append((key, property, base + ["properties", key]))
      }
    }
    for name in resolved["required"]?.array ?? [] {
      if let name = name.string { required.insert(name) }
    }
  }

  /// Makes a string or integer enum with an `unknown` case; `false` for values of other kinds.
  mutating func makeEnum(
    _ values: [YAMLValue], schema: YAMLValue, pointer: [String], fullName: String
  ) -> Bool {
    var names = SwiftNaming.Registry(reserved: ["unknown", "rawValue", "allCases"])
    if !values.isEmpty, values.allSatisfy({ $0.string != nil }) {
      let cases = values.compactMap(\.string).map { value in
        (name: names.unique(value.isEmpty ? "empty" : SwiftNaming.memberName(value)), value: value)
      }
      add(
        TypeDeclaration(
          fullName: fullName, kind: .stringEnum(cases), documentation: documentation(schema)))
      return true
    }
    if !values.isEmpty, values.allSatisfy({ $0.integer != nil && $0.string == nil }) {
      let cases = values.compactMap(\.integer).map { value in
        (name: names.unique(value < 0 ? "minus\(-value)" : "value\(value)"), value: value)
      }
      add(
        TypeDeclaration(
          fullName: fullName, kind: .integerEnum(cases), documentation: documentation(schema)))
      return true
    }
    warn(
      pointer + ["enum"], "an enum of mixed or non-scalar values is not supported; using its type")
    return false
  }

  /// Makes an enum with one case per `oneOf`/`anyOf` branch.
  mutating func makeChoice(
    _ schema: YAMLValue, branches: [(offset: Int, element: YAMLValue)], keyword: String,
    pointer: [String], fullName: String
  ) {
    add(
      TypeDeclaration(
        fullName: fullName, kind: .choice([], discriminator: nil),
        documentation: documentation(schema)))
    let discriminator = schema["discriminator"]?["propertyName"]?.string
    var mapping: [String: [String]] = [:]
    for (value, target) in schema["discriminator"]?["mapping"]?.mapping ?? YAMLMapping() {
      guard var reference = target.string else { continue }
      if !reference.hasPrefix("#") { reference = "#/components/schemas/" + reference }
      mapping[reference, default: []].append(value)
    }
    var names = SwiftNaming.Registry()
    var choices: [TypeDeclaration.Choice] = []
    // A value names one branch: the first that claims it.
    var claimed: Set<String> = []
    for (offset, branch) in branches {
      let branchPointer = pointer + [keyword, String(offset)]
      let (type, _) = convert(
        branch, pointer: branchPointer, name: "Option\(offset + 1)", parent: fullName)
      var values: [String] = []
      if let discriminator {
        var seen: Set<String> = []
        if let reference = branch["$ref"]?.string {
          // Without a mapping the standard names the schema, but many documents (OpenAI's,
          // among others) mean the one value the branch's own property allows; both are
          // accepted, or such answers would match no case. A mapped branch is not searched.
          values =
            mapping[reference]
            ?? [
              JSONPointer.tokens(of: reference).last,
              fixedValue(of: discriminator, in: branch, seen: &seen),
            ].compactMap { $0 }
        } else if let fixed = fixedValue(of: discriminator, in: branch, seen: &seen) {
          values = [fixed]
        } else {
          warn(
            branchPointer,
            "an inline branch cannot be chosen by the discriminator '\(discriminator)'; it is tried by decoding"
          )
        }
      }
      values = values.filter { claimed.insert($0).inserted }
      choices.append(
        TypeDeclaration.Choice(
          name: names.unique(caseName(for: type)), type: type, discriminatorValues: values))
    }
    add(
      TypeDeclaration(
        fullName: fullName, kind: .choice(choices, discriminator: discriminator),
        documentation: documentation(schema)))
  }

  /// The one string a schema's `property` can hold (`const`, or an `enum` of one value), found
  /// in its own properties first, then in its `allOf` parts, the last part first (as properties
  /// are merged); `nil` when the property is free or absent.
  ///
  /// A referenced part is read once (`seen`), as `collectProperties` does: parts that refer to
  /// the same schema again and again would otherwise make the walk exponential.
  private func fixedValue(
    of property: String, in schema: YAMLValue, seen: inout Set<String>, depth: Int = 0
  ) -> String? {
    guard depth < 32, let resolved = document.resolved(schema) else { return nil }
    if let reference = schema["$ref"]?.string, !seen.insert(reference).inserted { return nil }
    if let field = resolved["properties"]?[property].flatMap(document.resolved) {
      if let value = field["const"]?.string { return value }
      if let values = field["enum"]?.array, values.count == 1 { return values[0].string }
      return nil
    }
    for part in (resolved["allOf"]?.array ?? []).reversed() {
      if let value = fixedValue(of: property, in: part, seen: &seen, depth: depth + 1) {
        return value
      }
    }
    return nil
  }

  private func caseName(for type: TypeRef) -> String {
    switch type {
    case .named(let name): SwiftNaming.memberName(String(name.split(separator: ".").last!))
    case .array(let element): caseName(for: element) + "List"
    case .dictionary(let value): caseName(for: value) + "Map"
    case .dateTime: "dateTime"
    case .json: "json"
    default: SwiftNaming.memberName(type.swift("").replacingOccurrences(of: ".", with: ""))
    }
  }

  /// Marks struct properties that must be held through `Indirect`: those whose type contains
  /// the property's owner without a collection in between (a struct cannot contain itself).
  mutating func boxRecursiveProperties() {
    var edges: [String: [String]] = [:]
    for (name, declaration) in declarations {
      if case .object(let properties) = declaration.kind {
        edges[name] = properties.compactMap { property in
          if case .named(let target) = property.type { return target }
          return nil
        }
      }
    }
    func reaches(_ start: String, _ goal: String) -> Bool {
      var stack = [start]
      var visited: Set<String> = []
      while let next = stack.popLast() {
        if next == goal { return true }
        guard visited.insert(next).inserted else { continue }
        stack.append(contentsOf: edges[next] ?? [])
      }
      return false
    }
    for name in order {
      guard case .object(var properties) = declarations[name]?.kind else { continue }
      var changed = false
      for index in properties.indices {
        if case .named(let target) = properties[index].type, edges[target] != nil,
          reaches(target, name)
        {
          properties[index].isBoxed = true
          changed = true
        }
      }
      if changed { declarations[name]?.kind = .object(properties) }
    }
  }
}
