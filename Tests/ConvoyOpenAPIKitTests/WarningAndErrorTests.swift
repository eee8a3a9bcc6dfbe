import ConvoyOpenAPIKit
import Testing

@Suite struct WarningAndErrorTests {
  @Test func unsupportedConstructsWarnWithTheirPointerAndTheRestIsGenerated() throws {
    let schemas = """
          Odd: {not: {type: string}}
          Mixed: {type: [string, integer]}
          Good: {type: object, properties: {a: {$ref: '#/components/schemas/Missing'}}}
          Loop: {$ref: '#/components/schemas/Loop'}
      """
    let output = try #require(generate(document(schemas: schemas, version: "3.1.0")))
    let pointers = Set(output.warnings.map(\.pointer))
    #expect(pointers.contains("#/components/schemas/Odd/not"))
    #expect(pointers.contains("#/components/schemas/Mixed/type"))
    #expect(pointers.contains("#/components/schemas/Good/properties/a/$ref"))
    #expect(pointers.contains("#/components/schemas/Loop"))
    #expect(output.flatSource.contains("public var a: API.JSONValue?"))
    #expect(output.flatSource.contains("public typealias Loop = API.JSONValue"))
  }

  @Test func callbacksWebhooksLinksAndExtraSuccessAnswersWarn() throws {
    let text = """
      openapi: 3.1.0
      info: {title: T, version: '1'}
      webhooks: {ping: {post: {responses: {'200': {description: ok}}}}}
      paths:
        /a:
          post:
            operationId: a
            deprecated: true
            callbacks: {done: {}}
            responses:
              '200': {description: ok, links: {next: {operationId: a}}, content: {application/json: {schema: {type: string}}}}
              '201': {description: made, content: {application/json: {schema: {type: integer}}}}
      """
    let output = try #require(generate(text))
    #expect(
      Set(output.warnings.map(\.pointer)) == [
        "#/webhooks", "#/paths/~1a/post/callbacks", "#/paths/~1a/post/responses/201",
        "#/paths/~1a/post/responses/200/links",
      ])
    #expect(output.source.contains("/// Deprecated by the API."))
  }

  @Test func nonTokenSecuritySchemesWarn() throws {
    let text = """
      openapi: 3.0.0
      info: {title: T, version: '1'}
      components: {securitySchemes: {key: {type: apiKey, in: header, name: X-Key}}}
      paths: {/a: {get: {operationId: a, security: [{key: []}], responses: {'204': {description: none}}}}}
      """
    let output = try #require(generate(text))
    #expect(output.warnings.map(\.pointer) == ["#/components/securitySchemes/key"])
    #expect(!output.source.contains(".accessToken }"))
  }

  @Test func anUnusableSecuritySchemeIsWarnedAboutOnceWithItsOperationCount() throws {
    let operations = (1...5).map { index in
      "  /p\(index): {get: {operationId: p\(index), responses: {'204': {description: none}}}}"
    }.joined(separator: "\n")
    let text = """
      openapi: 3.0.0
      info: {title: T, version: '1'}
      security: [{key: []}, {key: [], other: []}]
      components: {securitySchemes: {key: {type: apiKey, in: header, name: X-Key}}}
      paths:
      \(operations)
      """
    let output = try #require(generate(text))
    #expect(
      output.warnings.map(\.pointer) == [
        "#/components/securitySchemes/key", "#/components/securitySchemes/other",
      ])
    #expect(output.warnings.first?.message.contains("the 5 operations requiring it") == true)
  }

  @Test func aPathParameterDescribedWithContentLeavesTheOperationOutNotItsPlaceholder() throws {
    let paths = """
        /items/{id}:
          get:
            operationId: getItem
            parameters:
              - {name: id, in: path, required: true, content: {application/json: {schema: {type: string}}}}
            responses: {'204': {description: none}}
        /items:
          get:
            operationId: listItems
            responses: {'204': {description: none}}
      """
    let output = try #require(generate(document(paths: paths)))
    #expect(output.operationCount == 1)
    #expect(!output.source.contains("{id}"))
    #expect(!output.source.contains("GetItem"))
    #expect(output.warnings.contains { $0.pointer == "#/paths/~1items~1{id}/get/parameters/0" })
  }

  @Test func aPathTemplateNoParameterFillsLeavesTheOperationOutNotItsPlaceholder() throws {
    // `{owner}` is documented by no parameter, and `{filter}`'s object has no text form: either
    // would go out as written, a wrong URL.
    let paths = """
        /repos/{owner}/items:
          get:
            operationId: listOwnerItems
            responses: {'204': {description: none}}
        /search/{filter}:
          get:
            operationId: search
            parameters:
              - {name: filter, in: path, required: true, schema: {type: object, properties: {a: {type: string}}}}
            responses: {'204': {description: none}}
        /items:
          get:
            operationId: listItems
            responses: {'204': {description: none}}
      """
    let output = try #require(generate(document(paths: paths)))
    #expect(output.operationCount == 1)
    #expect(!output.source.contains("{owner}") && !output.source.contains("{filter}"))
    let leftOut = output.warnings.filter { $0.message.contains("the operation is left out") }
    #expect(
      leftOut.map(\.pointer).sorted() == [
        "#/paths/~1repos~1{owner}~1items/get/parameters",
        "#/paths/~1search~1{filter}/get/parameters",
      ])
  }

  @Test func aPathParameterWithAnUntypedSchemaIsText() throws {
    // FastAPI writes `{title: …}` for a path parameter it has no type for.
    let paths = """
        /dags/{dag_id}:
          get:
            operationId: getDag
            parameters:
              - {name: dag_id, in: path, required: true, schema: {title: Dag Id}}
            responses: {'204': {description: none}}
      """
    let output = try #require(generate(document(paths: paths)))
    #expect(output.operationCount == 1)
    #expect(output.flatSource.contains("public var dagId: String"))
    #expect(output.flatSource.contains("pathSegment(self.dagId)"))
    #expect(output.warnings.isEmpty, "\(output.warnings)")
  }

  @Test func documentsThatAreNotOpenAPI3AreRejected() {
    #expect(
      throws: GeneratorError.unsupportedDocument(
        "Swagger 2.0 documents are not supported; convert to OpenAPI 3")
    ) {
      try OpenAPIGenerator.generate("swagger: '2.0'")
    }
    #expect(throws: GeneratorError.unsupportedDocument("OpenAPI 2.5 is not 3.0 or 3.1")) {
      try OpenAPIGenerator.generate("openapi: '2.5'")
    }
  }

  @Test func yamlErrorsCarryTheirPosition() {
    #expect(throws: GeneratorError.unreadableDocument("3:1: tabs cannot indent YAML; use spaces")) {
      try OpenAPIGenerator.generate("openapi: 3.0.0\ninfo:\n\ttitle: x")
    }
  }

  @Test func invalidNamespacesAreRejected() {
    #expect(throws: GeneratorError.invalidNamespace("my api")) {
      try OpenAPIGenerator.generate(document(), options: GeneratorOptions(namespace: "my api"))
    }
  }

  @Test func configurationFilesSetEveryOption() throws {
    var options = GeneratorOptions()
    try options.apply(
      configuration: """
        namespace: Shop
        access: internal
        tags: [a]
        operations: [x]
        exclude: [y]
        typeNames: {Article: Post}
        """)
    #expect(options.namespace == "Shop")
    #expect(options.access == .internal)
    #expect(options.selection.tags == ["a"])
    #expect(options.selection.operationIDs == ["x"])
    #expect(options.selection.excludedOperationIDs == ["y"])
    #expect(options.typeNames == ["Article": "Post"])
    #expect(throws: GeneratorError.unreadableConfiguration("unknown key 'colour'")) {
      try options.apply(configuration: "colour: blue")
    }
  }
}
