extension OperationWriter {
  /// Writes `body` when the operation has a request body.
  mutating func writeBody(_ operation: OperationModel, into code: inout CodeBuilder) {
    guard let body = operation.body else { return }
    var lines: [String]
    switch body {
    case .json:
      lines = ["return .json(input, encoder: \(namespace).makeEncoder())"]
    case .raw(let contentType):
      lines = ["return .data(input, contentType: \(SwiftNaming.literal(contentType)))"]
    case .form(let type):
      guard let fields = formLines(type, operation) else {
        lines = ["return .json(input, encoder: \(namespace).makeEncoder())"]
        break
      }
      lines =
        fields.isEmpty
        ? ["return .form([:])"]
        : ["var fields: [String: FormValue] = [:]"] + fields + ["return .form(fields)"]
    case .multipart(let type):
      guard let parts = multipartLines(type, operation) else {
        lines = ["return .json(input, encoder: \(namespace).makeEncoder())"]
        break
      }
      lines =
        parts.isEmpty
        ? ["return .multipart(MultipartFormData())"]
        : ["var form = MultipartFormData()"] + parts + ["return .multipart(form)"]
    }
    let head =
      operation.bodyIsRequired
      ? "let input = requestBody" : "guard let input = requestBody else { return nil }"
    code.line()
    code.line("/// The request body, encoded as the document says.")
    code.block("\(access)var body: RequestBody? {") { code in
      code.line(head)
      for line in lines { code.line(line) }
    }
  }

  private func objectProperties(_ type: TypeRef) -> [TypeDeclaration.Property]? {
    guard case .named(let name) = type, case .object(let properties) = declarations[name]?.kind
    else {
      return nil
    }
    return properties
  }

  /// Statements filling `fields` from `input`'s properties; `nil` when the body is not an object.
  private mutating func formLines(_ type: TypeRef, _ operation: OperationModel) -> [String]? {
    guard let properties = objectProperties(type) else {
      warnings.append(
        GeneratorWarning(
          pointer: JSONPointer.make(operation.pointer + ["requestBody"]),
          message: "a form body that is not an object with properties is sent as JSON"))
      return nil
    }
    var lines: [String] = []
    for property in properties {
      let key = SwiftNaming.literal(property.jsonName)
      let member = "input." + SwiftNaming.escaped(property.swiftName)
      guard let value = property.type.formExpression("value", namespace: namespace, enums: enums)
      else {
        warnings.append(
          GeneratorWarning(
            pointer: JSONPointer.make(operation.pointer + ["requestBody"]),
            message:
              "the form field '\(property.jsonName)' has no form representation and is not sent"))
        continue
      }
      if property.isOptional {
        lines += ["if let value = \(member) { fields[\(key)] = \(value) }"]
      } else {
        lines += ["do {", "  let value = \(member)", "  fields[\(key)] = \(value)", "}"]
      }
    }
    return lines
  }

  /// Statements appending `input`'s properties to `form`; `nil` when the body is not an object.
  private mutating func multipartLines(_ type: TypeRef, _ operation: OperationModel) -> [String]? {
    guard let properties = objectProperties(type) else {
      warnings.append(
        GeneratorWarning(
          pointer: JSONPointer.make(operation.pointer + ["requestBody"]),
          message: "a multipart body that is not an object with properties is sent as JSON"))
      return nil
    }
    var lines: [String] = []
    for property in properties {
      let name = SwiftNaming.literal(property.jsonName)
      var statements: [String]
      switch property.type {
      case .data:
        statements = ["form.append(value, name: \(name), fileName: \(name))"]
      case .array(.data):
        statements = ["for file in value { form.append(file, name: \(name), fileName: \(name)) }"]
      case .array(let element):
        guard let inner = element.textExpression("item", namespace: namespace, enums: enums) else {
          fallthrough
        }
        statements = ["for item in value { form.append(\(inner), name: \(name)) }"]
      default:
        guard let text = property.type.textExpression("value", namespace: namespace, enums: enums)
        else {
          warnings.append(
            GeneratorWarning(
              pointer: JSONPointer.make(operation.pointer + ["requestBody"]),
              message: "the multipart field '\(property.jsonName)' has no text form and is not sent"
            ))
          continue
        }
        statements = ["form.append(\(text), name: \(name))"]
      }
      let member = "input." + SwiftNaming.escaped(property.swiftName)
      if property.isOptional {
        lines += ["if let value = \(member) {"] + statements.map { "  " + $0 } + ["}"]
      } else {
        lines += ["do {", "  let value = \(member)"] + statements.map { "  " + $0 } + ["}"]
      }
    }
    return lines
  }
}
