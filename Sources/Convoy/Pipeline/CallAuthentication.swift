/// What the pipeline asks of a session for calls that need an access token.
///
/// The session (``ServerConnection``'s `SessionController`) lives in the authentication layer,
/// above the pipeline; the pipeline knows only this, so references keep pointing down the road
/// a request travels.
protocol CallAuthentication: Sendable {
  /// Signs an attempt. Runs after every other adapter, so no adapter can move the token
  /// elsewhere.
  var signingAdapter: any RequestAdapter { get }
  /// Renews an expired token. Runs before every other decision, so none judges a 401 that
  /// renewal can fix.
  var renewalDecision: any ResponseDecision { get }
}
