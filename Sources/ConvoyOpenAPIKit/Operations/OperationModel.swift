/// One operation, ready to be written as a `RequestDescribing` type and a factory function.
struct OperationModel {
  enum Location: String {
    case path
    case query
    case header
    case cookie
  }

  struct Parameter {
    var name: String
    var swiftName: String
    var location: Location
    var type: TypeRef
    var isRequired: Bool
    var style: String
    var explode: Bool
    var documentation: String?
  }

  enum Body {
    case json(TypeRef)
    case form(TypeRef)
    case multipart(TypeRef)
    case raw(contentType: String)
  }

  enum Response {
    case json(TypeRef)
    case empty
    case data
  }

  /// The tag group's type name.
  var group: String
  var typeName: String
  var functionName: String
  var method: String
  var path: String
  var pointer: [String]
  var documentation: String?
  var parameters: [Parameter]
  var body: Body?
  var bodyIsRequired: Bool
  var bodyDocumentation: String?
  var response: Response
  /// Keys to find a message in documented error bodies, beyond Convoy's defaults.
  var extraMessageKeys: [String]
  var errorDocumentation: [String]
  var requiresAccessToken: Bool
}
