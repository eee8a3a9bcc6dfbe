/// What was wrong with a body that could not be decoded: which field, which type.
public struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
  /// The kind of mismatch.
  public enum Reason: String, Sendable, Hashable {
    /// A value had another type than expected.
    case typeMismatch
    /// A required value was `null`.
    case valueNotFound
    /// A required key was missing.
    case keyNotFound
    /// The data was not valid (not JSON, or a value out of range).
    case dataCorrupted
    /// The response type threw something other than a `DecodingError`.
    case other
  }

  /// The kind of mismatch.
  public var reason: Reason
  /// The response type being decoded, e.g. `JSONResponse<Array<Place>>`.
  public var responseType: String
  /// The path to the offending field, e.g. `"[0].location.latitude"`; empty for the root.
  public var codingPath: String
  /// The decoder's own explanation.
  public var debugDescription: String

  /// Creates a failure from its parts.
  public init(reason: Reason, responseType: String, codingPath: String, debugDescription: String) {
    self.reason = reason
    self.responseType = responseType
    self.codingPath = codingPath
    self.debugDescription = debugDescription
  }

  /// Describes the error thrown while making `responseType`.
  public init(_ error: any Error, responseType: Any.Type) {
    let typeName = String(describing: responseType)
    guard let decodingError = error as? DecodingError else {
      self.init(
        reason: .other, responseType: typeName, codingPath: "",
        debugDescription: String(describing: error))
      return
    }
    switch decodingError {
    case .typeMismatch(_, let context):
      self.init(.typeMismatch, typeName, context)
    case .valueNotFound(_, let context):
      self.init(.valueNotFound, typeName, context)
    case .keyNotFound(let key, let context):
      self.init(
        reason: .keyNotFound, responseType: typeName,
        codingPath: Self.render(context.codingPath + [key]),
        debugDescription: context.debugDescription)
    case .dataCorrupted(let context):
      self.init(.dataCorrupted, typeName, context)
    @unknown default:
      self.init(
        reason: .other, responseType: typeName, codingPath: "",
        debugDescription: String(describing: decodingError))
    }
  }

  private init(_ reason: Reason, _ typeName: String, _ context: DecodingError.Context) {
    self.init(
      reason: reason, responseType: typeName, codingPath: Self.render(context.codingPath),
      debugDescription: context.debugDescription)
  }

  private static func render(_ path: [any CodingKey]) -> String {
    path.reduce(into: "") { text, key in
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
  }

  /// `keyNotFound at "[0].name" decoding JSONResponse<…>: …`.
  public var description: String {
    let path = codingPath.isEmpty ? "the root" : "\"\(codingPath)\""
    return "\(reason.rawValue) at \(path) decoding \(responseType): \(debugDescription)"
  }
}
