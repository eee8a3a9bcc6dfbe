import ConvoyOpenAPIKit
import Testing

@Suite struct OperationGenerationTests {
  private func source(_ paths: String, schemas: String = "") throws -> String {
    try #require(generate(document(schemas: schemas, paths: paths))).flatSource
  }

  @Test func operationsBecomeRequestsGroupedByTagWithAFactory() throws {
    let paths = """
        /articles:
          get:
            tags: [articles]
            operationId: list
            summary: Lists articles.
            parameters: [{name: tag, in: query, schema: {type: string}}]
            responses:
              '200': {description: OK, content: {application/json: {schema: {type: array, items: {type: string}}}}}
      """
    let text = try source(paths)
    #expect(text.contains("public enum Articles {}"))
    #expect(text.contains("public struct List: RequestDescribing {"))
    #expect(text.contains("public typealias Response = JSONResponse<[String]>"))
    #expect(text.contains("/// Lists articles."))
    #expect(text.contains("public static func list(tag: String? = nil) -> List {"))
    #expect(text.contains("items.append(URLQueryItem(name: \"tag\", value: value))"))
  }

  @Test func pathParametersArePercentEncodedSegments() throws {
    let paths = """
        /users/{user-id}/posts/{post}:
          parameters: [{name: user-id, in: path, required: true, schema: {type: string}}]
          delete:
            operationId: deletePost
            parameters: [{name: post, in: path, required: true, schema: {type: integer}}]
            responses: {'204': {description: gone}}
      """
    let text = try source(paths)
    #expect(
      text.contains(
        "\"/users/\" + API.pathSegment(self.userId) + \"/posts/\" + API.pathSegment(String(self.post))"
      ))
    #expect(text.contains("public typealias Response = EmptyResponse"))
    #expect(text.contains("public var method: HTTPMethod { .delete }"))
    #expect(text.contains("public enum Default {}"))
  }

  @Test func queryStylesFollowExplodeAndDeepObject() throws {
    let paths = """
        /search:
          get:
            operationId: search
            parameters:
              - {name: ids, in: query, explode: false, schema: {type: array, items: {type: integer}}}
              - {name: tags, in: query, schema: {type: array, items: {type: string}}}
              - {name: pipes, in: query, style: pipeDelimited, explode: false, schema: {type: array, items: {type: string}}}
              - {name: filter, in: query, style: deepObject, schema: {type: object, additionalProperties: {type: string}}}
            responses: {'204': {description: none}}
      """
    let text = try source(paths)
    #expect(text.contains("value.map { String($0) }.joined(separator: \",\")"))
    #expect(text.contains("items += value.map { URLQueryItem(name: \"tags\", value: $0) }"))
    #expect(text.contains("joined(separator: \"|\")"))
    #expect(text.contains("\"filter\" + \"[\\(entry.key)]\""))
  }

  @Test func headerAndCookieParametersBecomeHeaders() throws {
    let paths = """
        /a:
          get:
            operationId: a
            parameters:
              - {name: X-Trace, in: header, required: true, schema: {type: string}}
              - {name: Accept, in: header, schema: {type: string}}
              - {name: theme, in: cookie, schema: {type: string}}
            responses: {'204': {description: none}}
      """
    let output = try #require(generate(document(paths: paths)))
    #expect(output.flatSource.contains("headers.add(name: \"X-Trace\", value: value)"))
    #expect(output.flatSource.contains("cookies.append(\"theme=\" + value)"))
    #expect(output.warnings.contains { $0.pointer == "#/paths/~1a/get/parameters/1" })
  }

  @Test func bodiesAreEncodedByContentType() throws {
    let paths = """
        /json:
          post:
            operationId: json
            requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}}
            responses: {'204': {description: none}}
        /form:
          post:
            operationId: form
            requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: object, properties: {n: {type: integer}}}}}}
            responses: {'204': {description: none}}
        /upload:
          post:
            operationId: upload
            requestBody: {content: {multipart/form-data: {schema: {type: object, required: [f], properties: {f: {type: string, format: binary}, c: {type: string}}}}}}
            responses: {'204': {description: none}}
        /raw:
          put:
            operationId: raw
            requestBody: {required: true, content: {image/png: {schema: {type: string, format: binary}}}}
            responses: {'200': {description: bytes, content: {image/png: {}}}}
      """
    let text = try source(paths)
    #expect(text.contains("public static func json(body: API.Default.Json.Input) -> Json"))
    #expect(text.contains("return .json(input, encoder: API.makeEncoder())"))
    #expect(text.contains("if let value = input.n { fields[\"n\"] = .integer(value) }"))
    #expect(text.contains("form.append(value, name: \"f\", fileName: \"f\")"))
    #expect(text.contains("return .data(input, contentType: \"image/png\")"))
    #expect(text.contains("public typealias Response = DataResponse"))
  }

  @Test func securityRequirementsSignWithTheAccessToken() throws {
    let text = """
      openapi: 3.0.3
      info: {title: T, version: '1'}
      security: [{bearer: []}]
      components: {securitySchemes: {bearer: {type: http, scheme: bearer}}}
      paths:
        /me: {get: {operationId: me, responses: {'204': {description: none}}}}
        /open: {get: {operationId: open, security: [], responses: {'204': {description: none}}}}
      """
    let source = try #require(generate(text)).source
    let me = try #require(source.range(of: "struct Me:"))
    let open = try #require(source.range(of: "struct Open:"))
    let signed = source.ranges(
      of: "var authenticationRequirement: AuthenticationRequirement { .accessToken }")
    #expect(signed.count == 1)
    #expect(
      signed.first.map { $0.lowerBound > me.lowerBound && $0.lowerBound < open.lowerBound } == true)
  }

  @Test func documentedErrorBodiesTeachTheMessageParser() throws {
    let paths = """
        /a:
          get:
            operationId: a
            responses:
              '204': {description: none}
              '422':
                description: Invalid
                content: {application/json: {schema: {type: object, properties: {errors: {type: array, items: {type: object, properties: {msg: {type: string}}}}}}}}
      """
    let text = try source(paths)
    #expect(text.contains("ServerErrorMessageParser().messageKeys + [\"errors.0.msg\"]"))
    #expect(text.contains("/// - 422: Invalid"))
  }

  @Test func operationsWithoutAnIdAreNamedFromMethodAndPath() throws {
    let paths = """
        /users/{id}/avatar:
          get:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            responses: {'204': {description: none}}
      """
    #expect(try source(paths).contains("static func getUsersIdAvatar("))
  }

  @Test func selectionKeepsOnlyChosenTagsAndIDs() throws {
    let paths = """
        /a: {get: {tags: [one], operationId: a, responses: {'204': {description: none}}}}
        /b: {get: {tags: [two], operationId: b, responses: {'204': {description: none}}}}
        /c: {get: {tags: [two], operationId: c, responses: {'204': {description: none}}}}
      """
    var options = GeneratorOptions()
    options.selection.tags = ["two"]
    options.selection.excludedOperationIDs = ["c"]
    let output = try #require(generate(document(paths: paths), options: options))
    #expect(output.operationCount == 1)
    #expect(output.source.contains("struct B:"))
    #expect(!output.source.contains("struct A:"))
  }
}
