/// Something in the document the generator could not express, and where it is.
///
/// The generator still writes everything else; the affected place gets the closest type it can
/// (usually ``JSONValue``-typed free-form JSON) or is left out.
public struct GeneratorWarning: Sendable, Hashable, CustomStringConvertible {
  /// The JSON pointer of the construct, such as `#/components/schemas/Pet/not`.
  public let pointer: String
  /// What was not supported and what was written instead.
  public let message: String

  /// Creates a warning.
  public init(pointer: String, message: String) {
    self.pointer = pointer
    self.message = message
  }

  /// `#/pointer: message`.
  public var description: String { "\(pointer): \(message)" }
}
