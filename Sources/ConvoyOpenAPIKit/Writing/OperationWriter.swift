/// Writes one operation as a `RequestDescribing` struct plus a factory function on its group.
struct OperationWriter {
  let namespace: String
  let access: String
  let enums: Set<String>
  let declarations: [String: TypeDeclaration]
  var warnings: [GeneratorWarning] = []

  init(
    namespace: String, access: String, enums: Set<String>, declarations: [String: TypeDeclaration]
  ) {
    self.namespace = namespace
    self.access = access
    self.enums = enums
    self.declarations = declarations
  }

  private func swift(_ type: TypeRef) -> String { type.swift(namespace) }

  private func text(_ type: TypeRef, _ value: String) -> String? {
    if case .array(let element) = type,
      let inner = element.textExpression("$0", namespace: namespace, enums: enums)
    {
      return "\(value).map { \(inner) }.joined(separator: \",\")"
    }
    return type.textExpression(value, namespace: namespace, enums: enums)
  }

  private mutating func warn(_ operation: OperationModel, _ tail: [String], _ message: String) {
    warnings.append(
      GeneratorWarning(pointer: JSONPointer.make(operation.pointer + tail), message: message))
  }

  /// The stored inputs in the order the initializer takes them: path, required, body, optional.
  private func inputs(_ operation: OperationModel) -> [(
    name: String, label: String, type: String, optional: Bool, doc: String?
  )] {
    var required: [(String, String, String, Bool, String?)] = []
    var optional: [(String, String, String, Bool, String?)] = []
    for parameter in operation.parameters.sorted(by: {
      ($0.location == .path ? 0 : 1) < ($1.location == .path ? 0 : 1)
    }) {
      let entry = (
        parameter.swiftName, parameter.swiftName,
        swift(parameter.type) + (parameter.isRequired ? "" : "?"),
        !parameter.isRequired,
        parameter.documentation
          ?? "The `\(parameter.name)` \(parameter.location.rawValue) parameter."
      )
      if parameter.isRequired { required.append(entry) } else { optional.append(entry) }
    }
    if let body = operation.body {
      let type = bodyType(body)
      let entry = (
        "requestBody", "body", type + (operation.bodyIsRequired ? "" : "?"),
        !operation.bodyIsRequired,
        operation.bodyDocumentation ?? "The request body."
      )
      if operation.bodyIsRequired { required.append(entry) } else { optional.insert(entry, at: 0) }
    }
    return (required + optional).map {
      (name: $0.0, label: $0.1, type: $0.2, optional: $0.3, doc: $0.4)
    }
  }

  private func bodyType(_ body: OperationModel.Body) -> String {
    switch body {
    case .json(let type), .form(let type), .multipart(let type): swift(type)
    case .raw: "Data"
    }
  }

  mutating func write(_ operation: OperationModel, into code: inout CodeBuilder) {
    let a = access
    let inputs = inputs(operation)
    code.block("extension \(namespace).\(operation.group) {") { code in
      var doc = operation.documentation.map { $0 + "\n\n" } ?? ""
      doc += "`\(operation.method.uppercased()) \(operation.path)`"
      if operation.requiresAccessToken { doc += ", signed with the session's access token" }
      doc += "."
      if !operation.errorDocumentation.isEmpty {
        doc += "\n\nOther documented answers, which fail the call with the server's message:\n"
        doc += operation.errorDocumentation.joined(separator: "\n")
      }
      code.documentation(doc)
      code.block("\(a)struct \(operation.typeName): RequestDescribing {") { code in
        code.line("/// The answer's type.")
        code.line("\(a)typealias Response = \(responseType(operation.response))")
        for input in inputs {
          code.documentation(input.doc)
          code.line("\(a)var \(SwiftNaming.escaped(input.name)): \(input.type)")
        }
        code.line()
        code.line("/// Creates the request.")
        let parameters = inputs.map {
          "\(SwiftNaming.escaped($0.name)): \($0.type)" + ($0.optional ? " = nil" : "")
        }
        code.block("\(a)init(\(parameters.joined(separator: ", "))) {") { code in
          for input in inputs {
            code.line(
              "self.\(SwiftNaming.escaped(input.name)) = \(SwiftNaming.escaped(input.name))")
          }
        }
        code.line()
        code.line("/// \(operation.method.uppercased()).")
        code.line("\(a)var method: HTTPMethod { \(methodExpression(operation.method)) }")
        code.line()
        code.line("/// \(SwiftNaming.literal(operation.path)) with the path parameters filled in.")
        code.line("\(a)var path: String { \(pathExpression(operation)) }")
        writeQuery(operation, into: &code)
        writeHeaders(operation, into: &code)
        writeBody(operation, into: &code)
        if operation.requiresAccessToken {
          code.line()
          code.line("/// The document requires a token for this operation.")
          code.line("\(a)var authenticationRequirement: AuthenticationRequirement { .accessToken }")
        }
        if case .json = operation.response {
          code.line()
          code.line("/// Reads dates the way the document's formats need.")
          code.line("\(a)var decoder: JSONDecoder? { \(namespace).makeDecoder() }")
        }
        if !operation.extraMessageKeys.isEmpty {
          let keys = operation.extraMessageKeys.map(SwiftNaming.literal).joined(separator: ", ")
          code.line()
          code.line(
            "/// The standard decisions, reading messages where this operation's error bodies hold them."
          )
          code.block("\(a)var decisions: [any ResponseDecision]? {") { code in
            code.line("let keys = ServerErrorMessageParser().messageKeys + [\(keys)]")
            code.line(
              "return [RetryDecision(), StatusValidation(parser: ServerErrorMessageParser(messageKeys: keys)), ResponseDecoding()]"
            )
          }
        }
      }
      code.line()
      code.documentation(
        operation.documentation ?? "`\(operation.method.uppercased()) \(operation.path)`.")
      let labels = inputs.map {
        "\(SwiftNaming.escaped($0.label)): \($0.type)" + ($0.optional ? " = nil" : "")
      }
      code.block(
        "\(a)static func \(SwiftNaming.escaped(operation.functionName))(\(labels.joined(separator: ", "))) -> \(operation.typeName) {"
      ) { code in
        let arguments = inputs.map {
          "\(SwiftNaming.argumentLabel($0.name)): \(SwiftNaming.escaped($0.label))"
        }
        code.line("\(operation.typeName)(\(arguments.joined(separator: ", ")))")
      }
    }
  }

  private func responseType(_ response: OperationModel.Response) -> String {
    switch response {
    case .json(let type): "JSONResponse<\(swift(type))>"
    case .empty: "EmptyResponse"
    case .data: "DataResponse"
    }
  }

  private func methodExpression(_ method: String) -> String {
    ["get", "head", "post", "put", "patch", "delete", "options"].contains(method)
      ? "." + method : "HTTPMethod(rawValue: \(SwiftNaming.literal(method.uppercased())))"
  }

  /// The first `{name}` of the operation's path that no path parameter with a text form fills,
  /// `nil` when every one is filled. Such an operation is left out: its URL would be wrong.
  func unfilledPathTemplate(_ operation: OperationModel) -> String? {
    pathPieces(operation.path).lazy.compactMap { piece -> String? in
      guard case .template(let name) = piece else { return nil }
      return pathValue(name, of: operation) == nil ? name : nil
    }.first
  }

  /// The expression for a path parameter's text, `nil` when there is none.
  private func pathValue(_ name: String, of operation: OperationModel) -> String? {
    operation.parameters.first { $0.location == .path && $0.name == name }.flatMap {
      text($0.type, "self." + SwiftNaming.escaped($0.swiftName))
    }
  }

  private enum PathPiece {
    case literal(String)
    case template(String)
  }

  /// The path cut into literal text and `{name}` templates.
  private func pathPieces(_ path: String) -> [PathPiece] {
    var pieces: [PathPiece] = []
    var rest = Substring(path)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
      pieces.append(.template(String(rest[rest.index(after: open)..<close])))
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { pieces.append(.literal(String(rest))) }
    return pieces
  }

  /// The path with its parameters' text in place of their templates. Only for operations with
  /// no ``unfilledPathTemplate(_:)``; the generator leaves the others out.
  private func pathExpression(_ operation: OperationModel) -> String {
    var parts: [String] = []
    var literal = ""
    for piece in pathPieces(operation.path) {
      switch piece {
      case .literal(let text):
        literal += text
      case .template(let name):
        guard let value = pathValue(name, of: operation) else {
          literal += "{\(name)}"
          continue
        }
        if !literal.isEmpty { parts.append(SwiftNaming.literal(literal)) }
        literal = ""
        parts.append("\(namespace).pathSegment(\(value))")
      }
    }
    if !literal.isEmpty || parts.isEmpty { parts.append(SwiftNaming.literal(literal)) }
    return parts.joined(separator: " + ")
  }
}
