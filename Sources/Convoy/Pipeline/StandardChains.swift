extension ServerConnection {
  /// The adapters a connection uses by default, before any of its own: ``DefaultHeaders``.
  ///
  /// The pipeline sets method, URL, query items, headers and body first; these run after it, then
  /// a request's own ``RequestDescribing/adapters``.
  public static let standardAdapters: [any RequestAdapter] = [DefaultHeaders()]
}
