import Foundation

/// The resource owner password credentials grant (RFC 6749 §4.3; legacy, RFC 9700 §2.4): the
/// grant ``Login/password(username:password:)`` sends.
package struct PasswordGrant: OAuthGrant {
  /// The user's name or email.
  package var username: String
  /// The user's password; never in the grant's `description` or mirror.
  package var password: String

  /// Creates the grant.
  package init(username: String, password: String) {
    self.username = username
    self.password = password
  }

  /// `password`.
  package var grantType: String { "password" }
  /// `username` and `password`.
  package var parameters: [String: String] { ["username": username, "password": password] }
  /// `true`: the grant starts a session by itself.
  package var asksForScopes: Bool { true }
}

extension OAuthGrant where Self == PasswordGrant {
  /// The password grant (RFC 6749 §4.3; legacy) for `username` and `password`.
  package static func password(username: String, password: String) -> PasswordGrant {
    PasswordGrant(username: username, password: password)
  }
}
