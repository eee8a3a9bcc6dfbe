/// The client's own credentials (RFC 6749 §4.4), for a session of the app itself; a client
/// session is renewed by asking for it again, since it comes with no refresh token (§4.4.3).
///
/// ``Login/clientCredentials`` runs it as a job.
package struct ClientCredentialsGrant: OAuthGrant {
  /// Creates the grant.
  package init() {}

  /// `client_credentials`.
  package var grantType: String { "client_credentials" }
  /// None: the client authenticates as it is configured.
  package var parameters: [String: String] { [:] }
  /// `true`: the grant starts a session by itself.
  package var asksForScopes: Bool { true }
}

extension OAuthGrant where Self == ClientCredentialsGrant {
  /// The client credentials grant (RFC 6749 §4.4).
  package static var clientCredentials: ClientCredentialsGrant { ClientCredentialsGrant() }
}
