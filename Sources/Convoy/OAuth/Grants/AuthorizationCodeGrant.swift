import Foundation

/// An authorization code exchanged for a token, with the PKCE verifier (RFC 6749 §4.1.3,
/// RFC 7636 §4.5): the last step of ``AuthorizationCodeLogin``, after
/// ``AuthorizationCodeAttempt`` brought the code back.
public struct AuthorizationCodeGrant: OAuthGrant {
  /// The code the redirect carried.
  public var code: String
  /// The redirect URI the code was sent to, exactly as in the authorization request.
  public var redirectURI: String
  /// The PKCE verifier of the attempt; `nil` for a flow without PKCE.
  public var codeVerifier: String?

  /// Creates the grant.
  public init(code: String, redirectURI: String, codeVerifier: String?) {
    self.code = code
    self.redirectURI = redirectURI
    self.codeVerifier = codeVerifier
  }

  /// `authorization_code`.
  public var grantType: String { "authorization_code" }
  /// `code`, `redirect_uri` and, with PKCE, `code_verifier`.
  public var parameters: [String: String] {
    var parameters = ["code": code, "redirect_uri": redirectURI]
    parameters["code_verifier"] = codeVerifier
    return parameters
  }
}

extension OAuthGrant where Self == AuthorizationCodeGrant {
  /// The authorization code grant (RFC 6749 §4.1.3) with the PKCE verifier (RFC 7636 §4.5).
  public static func authorizationCode(
    code: String, redirectURI: String, codeVerifier: String?
  ) -> AuthorizationCodeGrant {
    AuthorizationCodeGrant(code: code, redirectURI: redirectURI, codeVerifier: codeVerifier)
  }
}
