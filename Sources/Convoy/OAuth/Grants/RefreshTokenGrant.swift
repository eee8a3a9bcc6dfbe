/// A refresh token exchanged for a new access token (RFC 6749 §6): how a session renews itself
/// when its access token expires.
package struct RefreshTokenGrant: OAuthGrant {
  /// The refresh token.
  package var refreshToken: String

  /// Creates the grant.
  package init(refreshToken: String) {
    self.refreshToken = refreshToken
  }

  /// `refresh_token`.
  package var grantType: String { "refresh_token" }
  /// `refresh_token`.
  package var parameters: [String: String] { ["refresh_token": refreshToken] }
}

extension OAuthGrant where Self == RefreshTokenGrant {
  /// The refresh token grant (RFC 6749 §6) for `refreshToken`.
  package static func refreshToken(_ refreshToken: String) -> RefreshTokenGrant {
    RefreshTokenGrant(refreshToken: refreshToken)
  }
}
