extension ServerConnection {
  /// The adapters a connection uses by default, before any of its own: ``DefaultHeaders``.
  ///
  /// The pipeline sets method, URL, query items, headers and body first; these run after it, then
  /// a request's own ``RequestDescribing/adapters``.
  public static let standardAdapters: [any RequestAdapter] = [DefaultHeaders()]

  /// The decisions a connection uses by default: retry what is transient, validate, decode.
  ///
  /// Renewal of an expired token always runs first, for requests that need a token, whatever the
  /// chain.
  public static let standardDecisions: [any ResponseDecision] = [
    RetryDecision(), StatusValidation(), ResponseDecoding(),
  ]
}
