/// A logged-in user's credentials: the app's client secret and the user's access token.
public struct Session: Codable, Sendable, Hashable {
  /// The client credentials the token was issued to; needed to renew it.
  public var clientSecret: ClientSecret
  /// The current access token.
  public var accessToken: AccessToken

  /// Creates a session.
  public init(clientSecret: ClientSecret, accessToken: AccessToken) {
    self.clientSecret = clientSecret
    self.accessToken = accessToken
  }
}

extension Session: CustomStringConvertible {
  /// A description without secrets.
  public var description: String { "Session(\(clientSecret), \(accessToken))" }
}
