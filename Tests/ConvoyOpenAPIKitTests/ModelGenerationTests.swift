import ConvoyOpenAPIKit
import Testing

@Suite struct ModelGenerationTests {
  @Test func objectsBecomeCodableStructsWithRequiredAndOptionalFields() throws {
    let schemas = """
          Article:
            type: object
            required: [id]
            properties:
              id: {type: integer, format: int64}
              title: {type: string}
      """
    let output = try #require(generate(document(schemas: schemas)))
    let source = output.flatSource
    #expect(source.contains("public struct Article: Codable, Hashable, Sendable {"))
    #expect(source.contains("public var id: Int64"))
    #expect(source.contains("public var title: String?"))
    #expect(source.contains("public init(id: Int64, title: String? = nil)"))
    #expect(source.contains("id = try container.decode(Int64.self, forKey: .id)"))
    #expect(source.contains("title = try container.decodeIfPresent(String.self, forKey: .title)"))
  }

  @Test func nullableRequiredFieldsAreOptionalButAlwaysEncoded() throws {
    let schemas = """
          A:
            type: object
            required: [x]
            properties:
              x: {type: string, nullable: true}
      """
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("public var x: String?"))
    #expect(source.contains("try container.encode(self.x, forKey: .x)"))
  }

  @Test func openAPI31NullForms() throws {
    let schemas = """
          A:
            type: object
            required: [a, b]
            properties:
              a: {type: [string, 'null']}
              b: {anyOf: [{$ref: '#/components/schemas/B'}, {type: 'null'}]}
          B: {type: object, properties: {n: {type: integer}}}
      """
    let source = try #require(generate(document(schemas: schemas, version: "3.1.0"))).flatSource
    #expect(source.contains("public var a: String?"))
    #expect(source.contains("public var b: API.B?"))
  }

  @Test func enumsKeepUnknownValues() throws {
    let schemas = """
          Status: {type: string, enum: [draft, in-review, '']}
          Level: {type: integer, enum: [1, -2]}
      """
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("case draft"))
    #expect(source.contains("case inReview"))
    #expect(source.contains("case empty"))
    #expect(source.contains("case unknown(String)"))
    #expect(source.contains("case \"in-review\": self = .inReview"))
    #expect(source.contains("case value1"))
    #expect(source.contains("case minus2"))
    #expect(source.contains("case unknown(Int)"))
  }

  @Test(arguments: [
    ("{type: string, format: date-time}", "Date"),
    ("{type: string, format: date}", "API.CalendarDate"),
    ("{type: string, format: uuid}", "UUID"), ("{type: string, format: uri}", "URL"),
    ("{type: string, format: binary}", "Data"), ("{type: string, format: byte}", "Data"),
    ("{type: integer, format: int32}", "Int32"), ("{type: integer}", "Int"),
    ("{type: number, format: float}", "Float"), ("{type: number}", "Double"),
    ("{type: boolean}", "Bool"), ("{type: array, items: {type: string}}", "[String]"),
    ("{type: object, additionalProperties: {type: integer}}", "[String: Int]"),
    ("{type: object}", "API.JSONValue"), ("{}", "API.JSONValue"),
  ])
  func formatsMapToSwiftTypes(schema: String, swiftType: String) throws {
    let schemas = "      A:\n        type: object\n        properties:\n          x: \(schema)"
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("public var x: \(swiftType)?"))
  }

  @Test func allOfMergesPropertiesAndRequiredFields() throws {
    let schemas = """
          Base: {type: object, required: [id], properties: {id: {type: integer}}}
          Named:
            allOf:
              - $ref: '#/components/schemas/Base'
              - {type: object, required: [name], properties: {name: {type: string}}}
      """
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("public init(id: Int, name: String)"))
  }

  @Test func oneOfWithADiscriminatorDispatchesOnIt() throws {
    let schemas = """
          Pet:
            oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
            discriminator: {propertyName: kind, mapping: {kitty: '#/components/schemas/Cat'}}
          Cat: {type: object, properties: {kind: {type: string}}}
          Dog: {type: object, properties: {kind: {type: string}}}
      """
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("public indirect enum Pet: Codable, Hashable, Sendable {"))
    #expect(source.contains("case cat(API.Cat)"))
    #expect(source.contains("case \"kitty\":"))
    #expect(source.contains("case \"Dog\":"))
  }

  /// OpenAI's description writes its event unions so: no mapping, and each branch (referenced,
  /// or inline through `allOf`) fixes the discriminator's value in an enum of one value or a
  /// `const`. Dispatching on the schema's name alone matched none of its events.
  @Test func branchesWithoutAMappingAreAlsoChosenByTheValueTheyFix() throws {
    let schemas = """
          Event:
            anyOf:
              - $ref: '#/components/schemas/Delta'
              - $ref: '#/components/schemas/Done'
              - allOf:
                  - $ref: '#/components/schemas/Failed'
                  - {type: object, properties: {retryable: {type: boolean}}}
              - {type: object, properties: {type: {const: stopped}}}
              - {type: object, properties: {type: {type: string}}}
              - $ref: '#/components/schemas/AlsoDone'
            discriminator: {propertyName: type}
          Delta: {type: object, properties: {type: {type: string, enum: [delta]}}}
          Done: {type: object, properties: {type: {type: string, enum: [done]}}}
          AlsoDone: {type: object, properties: {type: {type: string, enum: [done]}}}
          Failed:
            allOf:
              - $ref: '#/components/schemas/Base'
              - {type: object, properties: {type: {type: string, enum: [failed]}}}
          Base: {type: object, properties: {type: {type: string, enum: [base]}}}
      """
    let output = try #require(generate(document(schemas: schemas, version: "3.1.0")))
    let source = output.flatSource
    #expect(source.contains("case \"Delta\", \"delta\":"))
    #expect(source.contains("case \"Done\", \"done\":"))
    // The last allOf part's value wins, as its properties do when they are merged.
    #expect(source.contains("case \"failed\": self = .option3("))
    #expect(!source.contains("case \"base\": self = .option3("))
    #expect(source.contains("case \"stopped\":"))
    // A value already claimed stays with the first branch: one `case` per value.
    #expect(source.contains("case \"AlsoDone\":"))
    // Only the branch whose property is free is tried by decoding, and warned about.
    let warnings = output.warnings.filter { $0.message.contains("inline branch") }
    #expect(warnings.map(\.pointer) == ["#/components/schemas/Event/anyOf/4"])
  }

  /// Each level's two `allOf` parts refer to the same schema below it: read part by part, the
  /// search for the discriminator's value visits 2³⁰ schemas (it had not finished after 150 s);
  /// each is read once instead.
  @Test func aDiamondOfAllOfPartsIsSearchedForTheValueOnce() throws {
    var schemas = """
          Event:
            oneOf: [{$ref: '#/components/schemas/Level0'}, {$ref: '#/components/schemas/Other'}]
            discriminator: {propertyName: type}
          Other: {type: object, properties: {type: {type: string, enum: [other]}}}

      """
    for level in 0..<30 {
      let next = "'#/components/schemas/Level\(level + 1)'"
      schemas += "    Level\(level): {allOf: [{$ref: \(next)}, {$ref: \(next)}]}\n"
    }
    schemas += "    Level30: {type: object, properties: {name: {type: string}}}"
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("case \"Level0\":"))
    #expect(source.contains("case \"Other\", \"other\":"))
  }

  @Test func anyOfWithoutADiscriminatorTriesEachCase() throws {
    let schemas = "      Id:\n        anyOf: [{type: string}, {type: integer}]"
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("case string(String)"))
    #expect(source.contains("if let value = try? decoder.singleValueContainer().decode(Int.self)"))
  }

  @Test func directRecursionIsHeldIndirectly() throws {
    let schemas = """
          Node:
            type: object
            properties:
              next: {$ref: '#/components/schemas/Node'}
              children: {type: array, items: {$ref: '#/components/schemas/Node'}}
      """
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("public var next: API.Indirect<API.Node>?"))
    #expect(source.contains("public var children: [API.Node]?"))
  }

  @Test func keywordsAndNonIdentifiersBecomeValidNames() throws {
    let schemas = """
          class:
            type: object
            properties:
              default: {type: string}
              self: {type: string}
              2fa-code: {type: string}
              user_name: {type: string}
          Error: {type: object, properties: {message: {type: string}}}
      """
    let source = try #require(generate(document(schemas: schemas))).flatSource
    #expect(source.contains("public struct Class:"))
    #expect(source.contains("public var `default`: String?"))
    #expect(source.contains("public var selfValue: String?"))
    #expect(source.contains("case _2faCode = \"2fa-code\""))
    #expect(source.contains("case userName = \"user_name\""))
    #expect(source.contains("public struct ErrorModel:"))
  }

  @Test func configuredTypeNamesReplaceSchemaNames() throws {
    let schemas = "      Article: {type: object, properties: {id: {type: integer}}}"
    let options = GeneratorOptions(typeNames: ["Article": "Post"])
    let source = try #require(generate(document(schemas: schemas), options: options)).flatSource
    #expect(source.contains("public struct Post:"))
  }

  @Test func internalAccessWritesNoPublicModifiers() throws {
    let schemas = "      A: {type: object, properties: {id: {type: integer}}}"
    let options = GeneratorOptions(namespace: "Shop", access: .internal)
    let output = try #require(generate(document(schemas: schemas), options: options))
    #expect(!output.source.contains("public "))
    #expect(output.source.contains("enum Shop {}"))
    #expect(
      output.files.map(\.name) == ["Shop.swift", "Shop+Models.swift", "Shop+Operations.swift"])
  }
}
