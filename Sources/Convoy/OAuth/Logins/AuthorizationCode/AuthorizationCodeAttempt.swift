import Foundation

/// One attempt of the authorization code grant (RFC 6749 §4.1) with PKCE (RFC 7636): the URL to
/// show the person, and the check of what the redirect brings back.
///
/// ``Login/authorizationCode(through:additionalParameters:)`` makes one per login.
struct AuthorizationCodeAttempt: Sendable {
  /// The authorization endpoint with every parameter: show it to the person.
  let authorizationURL: URL
  /// Where the server sends the person back.
  let redirectURI: URL
  /// The random value the redirect must carry back (RFC 6749 §10.12).
  let state: String
  /// The verifier and its challenge.
  let pkce: PKCE

  /// Builds the authorization URL: `response_type=code`, `client_id`, `redirect_uri`, `scope`,
  /// `state` (16 random bytes unless given), `code_challenge` and `code_challenge_method=S256`,
  /// then `additionalParameters`.
  init(
    client: OAuthClient, authorizationEndpoint: URL, redirectURI: URL,
    additionalParameters: [String: String] = [:], state: String? = nil, pkce: PKCE = PKCE()
  ) {
    self.redirectURI = redirectURI
    let state = state ?? PKCE.randomToken(byteCount: 16)
    self.state = state
    self.pkce = pkce
    var items = [
      URLQueryItem(name: "response_type", value: "code"),
      URLQueryItem(name: "client_id", value: client.id),
      URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
    ]
    if !client.scopes.isEmpty {
      items.append(URLQueryItem(name: "scope", value: client.scopes.joined(separator: " ")))
    }
    items += [
      URLQueryItem(name: "state", value: state),
      URLQueryItem(name: "code_challenge", value: pkce.challenge),
      URLQueryItem(name: "code_challenge_method", value: PKCE.method),
    ]
    items += additionalParameters.sorted { $0.key < $1.key }.map {
      URLQueryItem(name: $0.key, value: $0.value)
    }
    var components = URLComponents(url: authorizationEndpoint, resolvingAgainstBaseURL: true)
    let existingQuery = components?.percentEncodedQuery
    components?.percentEncodedQuery = URLEncoding.appendQueryItems(items, to: existingQuery)
    authorizationURL = components?.url ?? authorizationEndpoint
  }

  /// The code in the redirect `callback`, once its `state` is this attempt's.
  ///
  /// - Throws: ``BrowserLoginError/stateMismatch`` before anything else, so a forged redirect
  ///   is never believed; ``AuthorizationError`` when the server sent `error` (e.g.
  ///   `access_denied`, RFC 6749 §4.1.2.1); ``BrowserLoginError/missingCode``.
  func code(from callback: URL) throws -> String {
    let items = URLComponents(url: callback, resolvingAgainstBaseURL: true)?.queryItems ?? []
    let value = { (name: String) in items.first { $0.name == name }?.value }
    guard value("state") == state else { throw BrowserLoginError.stateMismatch }
    if let error = value("error") {
      throw AuthorizationError(
        code: AuthorizationError.Code(rawValue: error),
        serverDescription: value("error_description"), context: ErrorContext(url: callback))
    }
    guard let code = value("code"), !code.isEmpty else { throw BrowserLoginError.missingCode }
    return code
  }
}
