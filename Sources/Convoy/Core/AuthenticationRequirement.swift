/// What a request needs from the connection's session before it may be sent.
public enum AuthenticationRequirement: Sendable, Hashable {
  /// The request is sent as it is.
  case none
  /// The request is signed with the current access token; without a session it fails at once
  /// with ``ServerConnectionError/notAuthenticated(_:)``.
  case accessToken
}
