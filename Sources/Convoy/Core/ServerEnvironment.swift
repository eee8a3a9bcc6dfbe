/// The name of a deployment of an API: `local`, `staging`, `production`, or one of the app's own.
public struct ServerEnvironment: RawRepresentable, Hashable, Sendable, Codable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The environment's name, e.g. `"staging"`.
  public let rawValue: String

  /// Creates an environment from its name.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates an environment from a literal name.
  public init(stringLiteral value: String) {
    self.init(rawValue: value)
  }

  /// A server on the developer's machine.
  public static let local = ServerEnvironment(rawValue: "local")
  /// The pre-release deployment.
  public static let staging = ServerEnvironment(rawValue: "staging")
  /// The live deployment.
  public static let production = ServerEnvironment(rawValue: "production")

  /// Any other deployment, e.g. `.custom("qa")`.
  public static func custom(_ name: String) -> ServerEnvironment {
    ServerEnvironment(rawValue: name)
  }

  /// The name.
  public var description: String { rawValue }
}
