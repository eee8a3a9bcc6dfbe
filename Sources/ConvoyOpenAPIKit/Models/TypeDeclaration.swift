/// A type the generator writes, addressed by its full name from the namespace.
struct TypeDeclaration {
  /// One stored property of a struct.
  struct Property {
    var jsonName: String
    var swiftName: String
    var type: TypeRef
    var isRequired: Bool
    var isNullable: Bool
    var documentation: String?
    /// Held through `Indirect` because the property's type contains this one.
    var isBoxed = false

    /// Whether the Swift property is optional.
    var isOptional: Bool { !isRequired || isNullable }
  }

  /// One case of a `oneOf` / `anyOf` enum.
  struct Choice {
    var name: String
    var type: TypeRef
    /// Discriminator values that select this case.
    var discriminatorValues: [String]
  }

  enum Kind {
    case object([Property])
    case stringEnum([(name: String, value: String)])
    case integerEnum([(name: String, value: Int)])
    case choice([Choice], discriminator: String?)
    case alias(TypeRef)
  }

  /// `Article` or `Article.Author`.
  var fullName: String
  var kind: Kind
  var documentation: String?

  /// The last component of ``fullName``.
  var name: String { String(fullName.split(separator: ".").last ?? "") }

  /// The enclosing type's full name, or `nil` at the top of the namespace.
  var parent: String? {
    guard let dot = fullName.lastIndex(of: ".") else { return nil }
    return String(fullName[..<dot])
  }
}
