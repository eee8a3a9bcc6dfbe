/// Writes the declarations collected by ``SchemaConverter`` as Swift.
struct ModelWriter {
  let namespace: String
  /// `"public "` or `""`.
  let access: String
  /// Full names of the generated string and integer enums (they have a `rawValue`).
  let enums: Set<String>

  func write(_ declaration: TypeDeclaration, into code: inout CodeBuilder) {
    let scope = declaration.parent.map { "\(namespace).\($0)" } ?? namespace
    code.block("extension \(scope) {") { code in
      code.documentation(declaration.documentation ?? "The `\(declaration.name)` schema.")
      switch declaration.kind {
      case .object(let properties): writeStruct(declaration.name, properties, into: &code)
      case .stringEnum(let cases):
        writeEnum(
          declaration.name, raw: "String",
          cases: cases.map { ($0.name, SwiftNaming.literal($0.value)) }, into: &code)
      case .integerEnum(let cases):
        writeEnum(
          declaration.name, raw: "Int", cases: cases.map { ($0.name, String($0.value)) },
          into: &code)
      case .choice(let choices, let discriminator):
        writeChoice(declaration.name, choices, discriminator: discriminator, into: &code)
      case .alias(let type):
        code.line("\(access)typealias \(declaration.name) = \(type.swift(namespace))")
      }
    }
  }

  private func propertyType(_ property: TypeDeclaration.Property) -> String {
    let base = property.type.swift(namespace)
    let stored = property.isBoxed ? "\(namespace).Indirect<\(base)>" : base
    return property.isOptional ? stored + "?" : stored
  }

  private func writeStruct(
    _ name: String, _ properties: [TypeDeclaration.Property], into code: inout CodeBuilder
  ) {
    code.block("\(access)struct \(name): Codable, Hashable, Sendable {") { code in
      for property in properties {
        code.documentation(property.documentation ?? "The `\(property.jsonName)` field.")
        code.line(
          "\(access)var \(SwiftNaming.escaped(property.swiftName)): \(propertyType(property))")
      }
      if !properties.isEmpty { code.line() }
      code.line("/// Creates the value from its fields.")
      let parameters = properties.map { property in
        let name = SwiftNaming.escaped(property.swiftName)
        return "\(name): \(propertyType(property))" + (property.isOptional ? " = nil" : "")
      }
      code.block("\(access)init(\(parameters.joined(separator: ", "))) {") { code in
        for property in properties {
          let name = SwiftNaming.escaped(property.swiftName)
          code.line("self.\(name) = \(name)")
        }
      }
      code.line()
      if properties.isEmpty {
        code.line("/// Decodes the value; it has no fields to read.")
        code.line("\(access)init(from decoder: any Decoder) throws {}")
        code.line()
        code.line("/// Encodes an empty object.")
        code.block("\(access)func encode(to encoder: any Encoder) throws {") { code in
          code.line("_ = encoder.container(keyedBy: \(namespace).AnyKey.self)")
        }
        return
      }
      let keys = Self.codingKeyNames(for: properties)
      code.block("private enum CodingKeys: String, CodingKey {") { code in
        for (property, key) in zip(properties, keys) {
          code.line("case \(key) = \(SwiftNaming.literal(property.jsonName))")
        }
      }
      code.line()
      // `self.` on every property: one named `container`, `decoder` or `encoder` is otherwise
      // the local or the parameter of the same name.
      code.line("/// Decodes the value from its JSON object.")
      code.block("\(access)init(from decoder: any Decoder) throws {") { code in
        code.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
        for (property, key) in zip(properties, keys) {
          let name = SwiftNaming.escaped(property.swiftName)
          var type = property.type.swift(namespace)
          if property.isBoxed { type = "\(namespace).Indirect<\(type)>" }
          let method = property.isOptional ? "decodeIfPresent" : "decode"
          code.line("self.\(name) = try container.\(method)(\(type).self, forKey: .\(key))")
        }
      }
      code.line()
      code.line("/// Encodes the value as a JSON object; a required field that is `nil` is `null`.")
      code.block("\(access)func encode(to encoder: any Encoder) throws {") { code in
        code.line("var container = encoder.container(keyedBy: CodingKeys.self)")
        for (property, key) in zip(properties, keys) {
          let name = SwiftNaming.escaped(property.swiftName)
          let method = property.isRequired ? "encode" : "encodeIfPresent"
          code.line("try container.\(method)(self.\(name), forKey: .\(key))")
        }
      }
    }
  }

  /// The `CodingKeys` case of each property, escaped: its own name, unless `CodingKey`,
  /// `RawRepresentable` or `Hashable` already has a member of that name.
  static func codingKeyNames(for properties: [TypeDeclaration.Property]) -> [String] {
    var names = SwiftNaming.Registry(reserved: SwiftNaming.codingKeyMembers)
    return properties.map { property in
      let name = property.swiftName
      return SwiftNaming.escaped(
        names.unique(SwiftNaming.codingKeyMembers.contains(name) ? name + "Key" : name))
    }
  }

  private func writeEnum(
    _ name: String, raw: String, cases: [(name: String, literal: String)],
    into code: inout CodeBuilder
  ) {
    code.block("\(access)enum \(name): RawRepresentable, Codable, Hashable, Sendable {") { code in
      for entry in cases {
        code.line("/// \(entry.literal)")
        code.line("case \(SwiftNaming.escaped(entry.name))")
      }
      code.line("/// A value this client does not know yet; decoding it does not fail.")
      code.line("case unknown(\(raw))")
      code.line()
      code.line("/// The case for `rawValue`, ``unknown(_:)`` for a value not in the document.")
      code.block("\(access)init(rawValue: \(raw)) {") { code in
        code.block("switch rawValue {", closing: "}") { code in
          for entry in cases {
            code.line("case \(entry.literal): self = .\(SwiftNaming.escaped(entry.name))")
          }
          code.line("default: self = .unknown(rawValue)")
        }
      }
      code.line()
      code.line("/// The value sent over the wire.")
      code.block("\(access)var rawValue: \(raw) {") { code in
        code.block("switch self {") { code in
          for entry in cases {
            code.line("case .\(SwiftNaming.escaped(entry.name)): \(entry.literal)")
          }
          code.line("case .unknown(let value): value")
        }
      }
      code.line()
      code.line("/// Decodes any \(raw == "String" ? "string" : "integer"), known or not.")
      code.block("\(access)init(from decoder: any Decoder) throws {") { code in
        code.line("self.init(rawValue: try decoder.singleValueContainer().decode(\(raw).self))")
      }
      code.line()
      code.line("/// Encodes the raw value.")
      code.block("\(access)func encode(to encoder: any Encoder) throws {") { code in
        code.line("var container = encoder.singleValueContainer()")
        code.line("try container.encode(rawValue)")
      }
    }
  }

  private func writeChoice(
    _ name: String, _ choices: [TypeDeclaration.Choice], discriminator: String?,
    into code: inout CodeBuilder
  ) {
    code.block("\(access)indirect enum \(name): Codable, Hashable, Sendable {") { code in
      for choice in choices {
        code.line("/// The value is a `\(choice.type.swift(namespace))`.")
        code.line("case \(SwiftNaming.escaped(choice.name))(\(choice.type.swift(namespace)))")
      }
      code.line()
      let dispatched = choices.filter { !$0.discriminatorValues.isEmpty }
      code.line("/// Decodes the case the discriminator names, or the first that decodes.")
      code.block("\(access)init(from decoder: any Decoder) throws {") { code in
        if let discriminator, !dispatched.isEmpty {
          code.line("let container = try decoder.container(keyedBy: \(namespace).AnyKey.self)")
          code.line("let key = \(namespace).AnyKey(\(SwiftNaming.literal(discriminator)))")
          code.block("switch try container.decodeIfPresent(String.self, forKey: key) {") { code in
            for choice in dispatched {
              let values = choice.discriminatorValues.map(SwiftNaming.literal).joined(
                separator: ", ")
              code.line("case \(values):")
              code.line(
                "  self = .\(SwiftNaming.escaped(choice.name))(try decoder.singleValueContainer().decode(\(choice.type.swift(namespace)).self))"
              )
              code.line("  return")
            }
            code.line("default: break")
          }
        }
        for choice in choices where choice.discriminatorValues.isEmpty || discriminator == nil {
          code.block(
            "if let value = try? decoder.singleValueContainer().decode(\(choice.type.swift(namespace)).self) {"
          ) { code in
            code.line("self = .\(SwiftNaming.escaped(choice.name))(value)")
            code.line("return")
          }
        }
        code.line("throw DecodingError.dataCorrupted(")
        code.line("  DecodingError.Context(")
        code.line(
          "    codingPath: decoder.codingPath, debugDescription: \(SwiftNaming.literal("matches no case of \(name)"))))"
        )
      }
      code.line()
      code.line("/// Encodes the case's value as it is.")
      code.block("\(access)func encode(to encoder: any Encoder) throws {") { code in
        code.line("var container = encoder.singleValueContainer()")
        code.block("switch self {") { code in
          for choice in choices {
            code.line(
              "case .\(SwiftNaming.escaped(choice.name))(let value): try container.encode(value)")
          }
        }
      }
    }
  }
}
