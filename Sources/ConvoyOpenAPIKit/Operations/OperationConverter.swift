import ConvoyYAML

/// Reads the document's paths into ``OperationModel``s.
struct OperationConverter {
  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
  /// Names `RequestDescribing` already uses, which stored parameters may not take.
  static let reservedMembers: Set<String> = [
    "method", "path", "queryItems", "headers", "body", "authenticationRequirement",
    "acceptableStatusCodes", "timeout", "decoder", "allowsRetry", "retryPolicy", "adapters",
    "decisions", "cachePolicy", "requestBody", "Response",
  ]
  /// Convoy's ``ServerErrorMessageParser`` tries these already.
  static let defaultMessageKeys = [
    "reason", "message", "error_description", "error.message", "detail",
  ]

  var schemas: SchemaConverter
  let selection: GeneratorOptions.Selection

  /// The operations selected, in document order.
  mutating func convert() -> [OperationModel] {
    let document = schemas.document
    var operations: [OperationModel] = []
    var functionNames: [String: SwiftNaming.Registry] = [:]
    if document.root["webhooks"] != nil {
      schemas.warn(["webhooks"], "webhooks are not supported and are left out")
    }
    for (path, item) in document.root["paths"]?.mapping ?? YAMLMapping() {
      let itemPointer = ["paths", path]
      guard let pathItem = document.resolved(item) else {
        schemas.warn(itemPointer, "this path item cannot be resolved and is left out")
        continue
      }
      for method in Self.methods {
        guard let operation = pathItem[method] else { continue }
        let tags = operation["tags"]?.array?.compactMap(\.string) ?? []
        let operationID = operation["operationId"]?.string
        guard selection.includes(operationID: operationID, tags: tags) else { continue }
        let pointer = itemPointer + [method]
        if operation["callbacks"] != nil {
          schemas.warn(pointer + ["callbacks"], "callbacks are not supported and are left out")
        }
        let groupKey = tags.first ?? "Default"
        let group = groupName(groupKey)
        var functions = functionNames[group] ?? SwiftNaming.Registry(reserved: ["init"])
        let baseName = operationID ?? (method + " " + path)
        let functionName = functions.unique(SwiftNaming.memberName(baseName))
        functionNames[group] = functions
        let typeName = schemas.uniqueName(SwiftNaming.typeName(functionName), in: group)
        if let model = convertOperation(
          operation, pathItem: pathItem, method: method, path: path, pointer: pointer,
          group: group, typeName: typeName, functionName: functionName)
        {
          operations.append(model)
        }
      }
    }
    warnAboutUnusableSchemes()
    return operations
  }

  private var groupNames: [String: String] = [:]
  /// Security schemes Convoy's session cannot satisfy, in the order first met, with the number
  /// of operations that require them: warned about once each, after every operation.
  private var unusableSchemes: [(name: String, type: String, operations: Int)] = []

  private mutating func warnAboutUnusableSchemes() {
    for scheme in unusableSchemes {
      let operations = scheme.operations == 1 ? "1 operation" : "\(scheme.operations) operations"
      schemas.warn(
        ["components", "securitySchemes", scheme.name],
        "the security scheme '\(scheme.name)' (\(scheme.type)) is not an access token; the "
          + "\(operations) requiring it are not signed: sign them with a RequestAdapter")
    }
  }

  init(schemas: SchemaConverter, selection: GeneratorOptions.Selection) {
    self.schemas = schemas
    self.selection = selection
  }

  /// The type name of a tag's group, unique among models and other groups.
  private mutating func groupName(_ tag: String) -> String {
    if let known = groupNames[tag] { return known }
    // A tag named like a model (`echo` and `Echo`) gets a suffix rather than a number.
    var wanted = SwiftNaming.typeName(tag)
    if schemas.registries[""]?.contains(wanted) == true { wanted += "Operations" }
    let name = schemas.uniqueName(wanted, in: "")
    groupNames[tag] = name
    return name
  }

  private mutating func convertOperation(
    _ operation: YAMLValue, pathItem: YAMLValue, method: String, path: String, pointer: [String],
    group: String, typeName: String, functionName: String
  ) -> OperationModel? {
    let owner = group + "." + typeName
    var names = SwiftNaming.Registry(reserved: Self.reservedMembers)
    var parameters: [OperationModel.Parameter] = []
    var seen: Set<String> = []
    // Operation parameters override path-item ones with the same name and location.
    let lists: [(YAMLValue?, [String])] = [
      (operation["parameters"], pointer + ["parameters"]),
      (pathItem["parameters"], ["paths", path, "parameters"]),
    ]
    for (list, listPointer) in lists {
      for (index, entry) in (list?.array ?? []).enumerated() {
        let entryPointer = listPointer + [String(index)]
        guard let parameter = schemas.document.resolved(entry),
          let name = parameter["name"]?.string,
          let location = OperationModel.Location(rawValue: parameter["in"]?.string ?? "")
        else {
          schemas.warn(entryPointer, "this parameter cannot be read and is left out")
          continue
        }
        guard seen.insert(location.rawValue + " " + name).inserted else { continue }
        if location == .header,
          ["accept", "content-type", "authorization"].contains(name.lowercased())
        {
          schemas.warn(entryPointer, "the header '\(name)' is set by Convoy and is left out")
          continue
        }
        guard let schema = parameter["schema"] else {
          // Left out, a path parameter would leave its `{name}` in the URL: a wrong request.
          if location == .path {
            schemas.warn(
              entryPointer,
              "the path parameter '\(name)' is described with 'content', which is not "
                + "supported; the operation is left out")
            return nil
          }
          schemas.warn(
            entryPointer,
            "a parameter without a schema ('content') is not supported and is left out")
          continue
        }
        var (type, _) = schemas.convert(
          schema, pointer: entryPointer + ["schema"], name: name, parent: owner)
        // A path segment is text, and a schema that allows any value (FastAPI writes `{title:
        // …}` for an untyped one) allows a string.
        if location == .path, case .json = type { type = .string }
        let style =
          parameter["style"]?.string
          ?? (location == .query || location == .cookie ? "form" : "simple")
        parameters.append(
          OperationModel.Parameter(
            name: name, swiftName: names.unique(SwiftNaming.memberName(name)), location: location,
            type: type, isRequired: location == .path || parameter["required"]?.bool == true,
            style: style, explode: parameter["explode"]?.bool ?? (style == "form"),
            documentation: parameter["description"]?.string))
      }
    }
    var model = OperationModel(
      group: group, typeName: typeName, functionName: functionName, method: method, path: path,
      pointer: pointer, documentation: documentation(operation), parameters: parameters, body: nil,
      bodyIsRequired: false, bodyDocumentation: nil, response: .empty, extraMessageKeys: [],
      errorDocumentation: [], requiresAccessToken: requiresAccessToken(operation, pointer: pointer))
    if let requestBody = operation["requestBody"] {
      readBody(requestBody, pointer: pointer + ["requestBody"], owner: owner, into: &model)
    }
    readResponses(
      operation["responses"], pointer: pointer + ["responses"], owner: owner, into: &model)
    return model
  }

  private func documentation(_ operation: YAMLValue) -> String? {
    var parts = [operation["summary"]?.string, operation["description"]?.string].compactMap { $0 }
    if operation["deprecated"]?.bool == true { parts.append("Deprecated by the API.") }
    return parts.isEmpty ? nil : parts.joined(separator: "\n\n")
  }

  private mutating func readBody(
    _ node: YAMLValue, pointer: [String], owner: String, into model: inout OperationModel
  ) {
    guard let requestBody = schemas.document.resolved(node),
      let content = requestBody["content"]?.mapping, !content.isEmpty
    else {
      schemas.warn(pointer, "this request body cannot be read and is left out")
      return
    }
    model.bodyIsRequired = requestBody["required"]?.bool == true
    model.bodyDocumentation = requestBody["description"]?.string
    let types = content.keys
    func schema(_ type: String) -> (YAMLValue, [String]) {
      (content[type]?["schema"] ?? .mapping(YAMLMapping()), pointer + ["content", type, "schema"])
    }
    if let json = types.first(where: isJSON) {
      let (node, schemaPointer) = schema(json)
      model.body = .json(
        schemas.convert(node, pointer: schemaPointer, name: "Input", parent: owner).0)
    } else if let form = types.first(where: { $0.hasPrefix("application/x-www-form-urlencoded") }) {
      let (node, schemaPointer) = schema(form)
      model.body = .form(
        schemas.convert(node, pointer: schemaPointer, name: "Input", parent: owner).0)
    } else if let multipart = types.first(where: { $0.hasPrefix("multipart/form-data") }) {
      let (node, schemaPointer) = schema(multipart)
      model.body = .multipart(
        schemas.convert(node, pointer: schemaPointer, name: "Input", parent: owner).0)
    } else {
      let type = types[0]
      model.body = .raw(contentType: type.contains("*") ? "application/octet-stream" : type)
    }
  }

  private func isJSON(_ contentType: String) -> Bool {
    let base = contentType.split(separator: ";").first.map(String.init) ?? contentType
    return base == "application/json" || base.hasSuffix("+json")
  }

  private mutating func readResponses(
    _ node: YAMLValue?, pointer: [String], owner: String, into model: inout OperationModel
  ) {
    guard let responses = node?.mapping else {
      schemas.warn(pointer, "the operation documents no responses; its answer is ignored")
      return
    }
    let success =
      responses.keys.first { $0.hasPrefix("2") }
      ?? (responses.contains("default") ? "default" : nil)
    for status in responses.keys where status.hasPrefix("2") && status != success {
      let other = schemas.document.resolved(responses[status]!)
      if other?["content"]?.mapping?.isEmpty == false {
        schemas.warn(
          pointer + [status],
          "only the first success answer (\(success ?? "")) is typed; a \(status) body is decoded as that type too"
        )
      }
    }
    if let success, let response = schemas.document.resolved(responses[success]!) {
      if response["links"] != nil {
        schemas.warn(pointer + [success, "links"], "links are not supported and are left out")
      }
      let content = response["content"]?.mapping ?? YAMLMapping()
      if let json = content.keys.first(where: isJSON) {
        let schema = content[json]?["schema"] ?? .mapping(YAMLMapping())
        let (type, _) = schemas.convert(
          schema, pointer: pointer + [success, "content", json, "schema"], name: "Output",
          parent: owner)
        model.response = .json(type)
      } else {
        model.response = content.isEmpty ? .empty : .data
      }
    }
    for (status, node) in responses where status != success {
      guard let response = schemas.document.resolved(node) else { continue }
      let text = response["description"]?.string ?? ""
      model.errorDocumentation.append("- \(status): \(text)")
      guard let schema = response["content"]?["application/json"]?["schema"] else { continue }
      for key in messageKeys(in: schema, prefix: "", depth: 0)
      where !Self.defaultMessageKeys.contains(key) && !model.extraMessageKeys.contains(key) {
        model.extraMessageKeys.append(key)
      }
    }
  }

  /// Dotted paths to string fields that read as messages (`detail`, `errors.0.message`).
  private func messageKeys(in schema: YAMLValue, prefix: String, depth: Int) -> [String] {
    guard depth < 3, let resolved = schemas.document.resolved(schema) else { return [] }
    let names: Set<String> = [
      "message", "msg", "detail", "error", "reason", "title", "description", "error_description",
    ]
    var keys: [String] = []
    if let items = resolved["items"] {
      return messageKeys(in: items, prefix: prefix + "0.", depth: depth + 1)
    }
    for (name, property) in resolved["properties"]?.mapping ?? YAMLMapping() {
      guard let target = schemas.document.resolved(property) else { continue }
      let type = target["type"]?.string
      if type == "string" || target["anyOf"] != nil, names.contains(name) {
        keys.append(prefix + name)
      } else if type == "array" || type == "object" || target["properties"] != nil {
        keys += messageKeys(in: property, prefix: prefix + name + ".", depth: depth + 1)
      }
    }
    return keys
  }

  /// Whether the operation (or, when it has none, the document) requires a token; schemes
  /// Convoy's session cannot satisfy are counted, for one warning each.
  private mutating func requiresAccessToken(_ operation: YAMLValue, pointer: [String]) -> Bool {
    let requirements =
      operation["security"]?.array ?? schemas.document.root["security"]?.array ?? []
    guard !requirements.isEmpty, !requirements.contains(where: { $0.mapping?.isEmpty == true })
    else {
      return false
    }
    let schemes = schemas.document.root["components"]?["securitySchemes"]
    var tokenSchemes = 0
    var counted: Set<String> = []
    for requirement in requirements {
      for (name, _) in requirement.mapping ?? YAMLMapping() {
        let scheme = schemes?[name].flatMap(schemas.document.resolved)
        let type = scheme?["type"]?.string
        let bearer = type == "http" && scheme?["scheme"]?.string?.lowercased() == "bearer"
        if type == "oauth2" || type == "openIdConnect" || bearer {
          tokenSchemes += 1
        } else if !counted.insert(name).inserted {
          continue
        } else if let known = unusableSchemes.firstIndex(where: { $0.name == name }) {
          unusableSchemes[known].operations += 1
        } else {
          unusableSchemes.append((name, type ?? "unknown", 1))
        }
      }
    }
    return tokenSchemes > 0
  }
}
