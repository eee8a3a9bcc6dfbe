import Foundation

/// An authorization code exchanged for a token, with the PKCE verifier (RFC 6749 §4.1.3,
/// RFC 7636 §4.5): the last step of ``Login/authorizationCode(through:additionalParameters:)``,
/// after ``AuthorizationCodeAttempt`` brought the code back.
package struct AuthorizationCodeGrant: OAuthGrant {
  /// The code the redirect carried.
  package var code: String
  /// The redirect URI the code was sent to, exactly as in the authorization request.
  package var redirectURI: String
  /// The PKCE verifier of the attempt; `nil` for a flow without PKCE.
  package var codeVerifier: String?

  /// Creates the grant.
  package init(code: String, redirectURI: String, codeVerifier: String?) {
    self.code = code
    self.redirectURI = redirectURI
    self.codeVerifier = codeVerifier
  }

  /// `authorization_code`.
  package var grantType: String { "authorization_code" }
  /// `code`, `redirect_uri` and, with PKCE, `code_verifier`.
  package var parameters: [String: String] {
    var parameters = ["code": code, "redirect_uri": redirectURI]
    parameters["code_verifier"] = codeVerifier
    return parameters
  }
}

extension OAuthGrant where Self == AuthorizationCodeGrant {
  /// The authorization code grant (RFC 6749 §4.1.3) with the PKCE verifier (RFC 7636 §4.5).
  package static func authorizationCode(
    code: String, redirectURI: String, codeVerifier: String?
  ) -> AuthorizationCodeGrant {
    AuthorizationCodeGrant(code: code, redirectURI: redirectURI, codeVerifier: codeVerifier)
  }
}
