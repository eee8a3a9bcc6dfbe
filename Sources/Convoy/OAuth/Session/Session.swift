/// What a login produces and a store keeps: the access token, and what renewing it needs.
public struct Session: Codable, Sendable, Hashable {
  /// The client credentials the token was issued to, when the login got its own (the demo
  /// Places API hands each login a client); `nil` when the configured
  /// ``AuthenticationConfiguration/client`` renews it.
  public var clientSecret: ClientSecret?
  /// The current access token.
  public var accessToken: AccessToken
  /// Whether the session is the client's own (the client credentials grant, RFC 6749 §4.4),
  /// renewed by repeating that grant since it has no refresh token.
  public var isClientSession: Bool

  /// Creates a session.
  public init(
    clientSecret: ClientSecret? = nil, accessToken: AccessToken, isClientSession: Bool = false
  ) {
    self.clientSecret = clientSecret
    self.accessToken = accessToken
    self.isClientSession = isClientSession
  }

  private enum CodingKeys: String, CodingKey {
    case clientSecret, accessToken, isClientSession
  }

  /// Decodes a session; one saved before ``isClientSession`` existed is a user's.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    clientSecret = try container.decodeIfPresent(ClientSecret.self, forKey: .clientSecret)
    accessToken = try container.decode(AccessToken.self, forKey: .accessToken)
    isClientSession =
      try container.decodeIfPresent(Bool.self, forKey: .isClientSession) ?? false
  }
}

extension Session: CustomStringConvertible {
  /// A description without secrets.
  public var description: String {
    let client = clientSecret.map { "\($0), " } ?? ""
    return "Session(\(client)\(accessToken)\(isClientSession ? ", client session" : ""))"
  }
}
