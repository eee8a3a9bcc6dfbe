extension OperationWriter {
  /// Writes `queryItems` when the operation has query parameters.
  mutating func writeQuery(_ operation: OperationModel, into code: inout CodeBuilder) {
    let query = operation.parameters.filter { $0.location == .query }
    guard !query.isEmpty else { return }
    var statements: [String] = []
    for parameter in query {
      guard let lines = queryStatements(parameter) else {
        warnings.append(
          GeneratorWarning(
            pointer: JSONPointer.make(operation.pointer + ["parameters"]),
            message: "the query parameter '\(parameter.name)' has no text form and is not sent"))
        continue
      }
      statements += wrap(parameter, lines)
    }
    guard !statements.isEmpty else { return }
    code.line()
    code.line("/// The query parameters that have values.")
    code.block("\(access)var queryItems: [URLQueryItem] {") { code in
      code.line("var items: [URLQueryItem] = []")
      for statement in statements { code.line(statement) }
      code.line("return items")
    }
  }

  /// `lines` (which use `value`) run only when the parameter has one.
  private func wrap(_ parameter: OperationModel.Parameter, _ lines: [String]) -> [String] {
    let member = "self." + SwiftNaming.escaped(parameter.swiftName)
    if parameter.isRequired {
      return ["do {", "  let value = \(member)"] + lines.map { "  " + $0 } + ["}"]
    }
    return ["if let value = \(member) {"] + lines.map { "  " + $0 } + ["}"]
  }

  private func item(_ name: String, _ value: String) -> String {
    "items.append(URLQueryItem(name: \(name), value: \(value)))"
  }

  /// Statements appending `value`'s items by the parameter's style, or `nil` when the type has
  /// no text form.
  private func queryStatements(_ parameter: OperationModel.Parameter) -> [String]? {
    let name = SwiftNaming.literal(parameter.name)
    switch parameter.type {
    case .array(let element):
      guard let inner = element.textExpression("$0", namespace: namespace, enums: enums) else {
        return nil
      }
      if parameter.explode {
        return ["items += value.map { URLQueryItem(name: \(name), value: \(inner)) }"]
      }
      let separator =
        parameter.style == "spaceDelimited" ? " " : parameter.style == "pipeDelimited" ? "|" : ","
      return [
        item(name, "value.map { \(inner) }.joined(separator: \(SwiftNaming.literal(separator)))")
      ]
    case .dictionary(let valueType):
      guard let inner = valueType.textExpression("entry.value", namespace: namespace, enums: enums)
      else { return nil }
      let key = parameter.style == "deepObject" ? "\(name) + \"[\\(entry.key)]\"" : "entry.key"
      return ["for entry in value.sorted(by: { $0.key < $1.key }) {", "  " + item(key, inner), "}"]
    case .named(let typeName) where !enums.contains(typeName):
      guard case .object(let properties) = declarations[typeName]?.kind else { return nil }
      var lines: [String] = []
      for property in properties {
        guard let inner = property.type.textExpression("field", namespace: namespace, enums: enums)
        else { continue }
        let key =
          parameter.style == "deepObject"
          ? SwiftNaming.literal("\(parameter.name)[\(property.jsonName)]")
          : SwiftNaming.literal(property.jsonName)
        let member = "value." + SwiftNaming.escaped(property.swiftName)
        if property.isOptional {
          lines += ["if let field = \(member) {", "  " + item(key, inner), "}"]
        } else {
          lines += ["do {", "  let field = \(member)", "  " + item(key, inner), "}"]
        }
      }
      return lines.isEmpty ? nil : lines
    default:
      guard let inner = parameter.type.textExpression("value", namespace: namespace, enums: enums)
      else { return nil }
      return [item(name, inner)]
    }
  }

  /// Writes `headers` when the operation has header or cookie parameters.
  mutating func writeHeaders(_ operation: OperationModel, into code: inout CodeBuilder) {
    var headerLines: [String] = []
    var cookieLines: [String] = []
    for parameter in operation.parameters
    where parameter.location == .header || parameter.location == .cookie {
      let valueText: String?
      if case .array(let element) = parameter.type {
        valueText = element.textExpression("$0", namespace: namespace, enums: enums)
          .map { "value.map { \($0) }.joined(separator: \",\")" }
      } else {
        valueText = parameter.type.textExpression("value", namespace: namespace, enums: enums)
      }
      guard let valueText else {
        warnings.append(
          GeneratorWarning(
            pointer: JSONPointer.make(operation.pointer + ["parameters"]),
            message:
              "the \(parameter.location.rawValue) parameter '\(parameter.name)' has no text form and is not sent"
          ))
        continue
      }
      let name = SwiftNaming.literal(parameter.name)
      if parameter.location == .header {
        headerLines += wrap(parameter, ["headers.add(name: \(name), value: \(valueText))"])
      } else {
        cookieLines += wrap(
          parameter, ["cookies.append(\(SwiftNaming.literal(parameter.name + "=")) + \(valueText))"]
        )
      }
    }
    guard !headerLines.isEmpty || !cookieLines.isEmpty else { return }
    code.line()
    code.line("/// The header and cookie parameters that have values.")
    code.block("\(access)var headers: HTTPHeaders {") { code in
      code.line(
        (headerLines.isEmpty && cookieLines.isEmpty ? "let" : "var") + " headers = HTTPHeaders()")
      for statement in headerLines { code.line(statement) }
      if !cookieLines.isEmpty {
        code.line("var cookies: [String] = []")
        for statement in cookieLines { code.line(statement) }
        code.line(
          "if !cookies.isEmpty { headers.add(name: \"Cookie\", value: cookies.joined(separator: \"; \")) }"
        )
      }
      code.line("return headers")
    }
  }
}
