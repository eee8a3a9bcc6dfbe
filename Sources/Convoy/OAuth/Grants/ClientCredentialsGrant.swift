/// The client's own credentials (RFC 6749 §4.4), for a session of the app itself; a client
/// session is renewed by asking for it again, since it comes with no refresh token (§4.4.3).
///
/// ``ClientCredentialsLogin`` runs it as a job.
public struct ClientCredentialsGrant: OAuthGrant {
  /// Creates the grant.
  public init() {}

  /// `client_credentials`.
  public var grantType: String { "client_credentials" }
  /// None: the client authenticates as it is configured.
  public var parameters: [String: String] { [:] }
  /// `true`: the grant starts a session by itself.
  public var asksForScopes: Bool { true }
}

extension OAuthGrant where Self == ClientCredentialsGrant {
  /// The client credentials grant (RFC 6749 §4.4).
  public static var clientCredentials: ClientCredentialsGrant { ClientCredentialsGrant() }
}
