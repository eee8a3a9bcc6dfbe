/// A grant the token endpoint issues an access token for (RFC 6749 §4 and §6, RFC 8628 §3.4):
/// its `grant_type` and the parameters that go with it.
///
/// Each grant is a type of its own, so a grant Convoy does not ship (an extension grant such as
/// RFC 7523's JWT bearer or RFC 8693's token exchange) is one new type, sent with
/// ``AccessTokenRequest`` like the built-in ones:
///
/// ```swift
/// struct JWTBearerGrant: OAuthGrant {
///   var assertion: String
///   var grantType: String { "urn:ietf:params:oauth:grant-type:jwt-bearer" }
///   var parameters: [String: String] { ["assertion": assertion] }
///   var asksForScopes: Bool { true }
/// }
/// ```
///
/// A grant's `description` and mirror show its type only, never a credential.
public protocol OAuthGrant: Sendable, CustomStringConvertible, CustomReflectable {
  /// The `grant_type` parameter: a registered name such as `password`, or an absolute URI for
  /// an extension grant (RFC 6749 §4.5).
  var grantType: String { get }
  /// The grant's parameters beside `grant_type`, e.g. `username` and `password`.
  var parameters: [String: String] { get }
  /// Whether the request carries the client's scopes: `true` for a grant that starts a session
  /// by itself; `false` (the default) for a refresh, which keeps the scopes of the grant it renews
  /// (RFC 6749 §6), and for grants that asked for them in an earlier step.
  var asksForScopes: Bool { get }
}

extension OAuthGrant {
  /// `false`: see ``asksForScopes``.
  public var asksForScopes: Bool { false }
  /// The grant type as sent, e.g. `password`; never a credential.
  public var description: String { grantType }
  /// A mirror with the grant type only, so `dump` stays safe.
  public var customMirror: Mirror { Mirror(self, children: ["grant": grantType]) }
}
