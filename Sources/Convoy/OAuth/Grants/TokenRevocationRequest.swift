import Foundation

/// Asks the authorization server to revoke a token (RFC 7009 §2.1), with the client
/// authenticated as for the token endpoint.
struct TokenRevocationRequest: OAuthFormRequest {
  /// The answer: nothing but the status; RFC 7009 §2.2 answers 200 even for an unknown token.
  typealias Response = EmptyResponse

  /// Which kind of token is revoked, as a hint to the server (RFC 7009 §2.1).
  enum Kind: String, Sendable, Hashable {
    /// A refresh token; servers revoke the access tokens issued with it too.
    case refreshToken = "refresh_token"
    /// An access token.
    case accessToken = "access_token"
  }

  /// The token to revoke.
  var token: String
  /// What it is.
  var kind: Kind
  /// The client it was issued to.
  var client: OAuthClient
  /// The revocation endpoint: a path or an absolute URL.
  var endpoint: String

  /// Creates the request.
  init(token: String, kind: Kind, client: OAuthClient, endpoint: String) {
    self.token = token
    self.kind = kind
    self.client = client
    self.endpoint = endpoint
  }

  /// `token` and `token_type_hint`.
  var formParameters: [String: String] {
    ["token": token, "token_type_hint": kind.rawValue]
  }
}

extension TokenRevocationRequest: CustomStringConvertible, CustomReflectable {
  /// The kind and client, never the token.
  var description: String {
    "TokenRevocationRequest(\(kind.rawValue), client: \(client.id), endpoint: \(endpoint))"
  }
  /// A mirror without the token.
  var customMirror: Mirror {
    Mirror(self, children: ["kind": kind, "client": client, "endpoint": endpoint])
  }
}

/// What ``ServerConnection/logout()`` achieved at the server; the session is forgotten locally
/// in every case.
public enum RevocationOutcome: Sendable {
  /// The server revoked the session's tokens.
  case revoked
  /// Nothing was sent: no session, or no revocation endpoint is configured or discovered.
  case notAttempted
  /// The server could not be asked or refused; the tokens may still be valid there.
  case failed(any Error)
}
