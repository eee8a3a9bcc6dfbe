/// The OAuth2 client credentials an app is issued (RFC 6749 §2.3.1).
///
/// Its `description` and mirror never show the secret.
public struct ClientSecret: Codable, Sendable, Hashable {
  /// The client identifier.
  public var id: String
  /// The client secret.
  public var secret: String

  /// Creates client credentials.
  public init(id: String, secret: String) {
    self.id = id
    self.secret = secret
  }
}

extension ClientSecret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `ClientSecret(id: app-1, secret: <redacted>)`.
  public var description: String { "ClientSecret(id: \(id), secret: \(SecretRedactor.mask))" }
  /// The same as ``description``.
  public var debugDescription: String { description }
  /// A mirror without the secret, so `dump` stays safe.
  public var customMirror: Mirror {
    Mirror(self, children: ["id": id, "secret": SecretRedactor.mask])
  }
}
