import Foundation

extension ServerConnection {
  /// The current session, or `nil` when logged out.
  public var session: Session? {
    authentication.session
  }

  /// Installs `session`, e.g. the output of a login job, and saves it in the session store.
  ///
  /// Clears a previous "session expired" state.
  /// - Throws: ``SessionStoreError`` when the store cannot save it; the session is not installed.
  public func login(session: Session) throws(SessionStoreError) {
    try authentication.install(session)
  }

  /// Loads the session saved in the session store, if any, and installs it.
  ///
  /// - Throws: ``SessionStoreError`` for a saved session that cannot be read; the saved file is
  ///   left as it is.
  @discardableResult
  public func restoreSession() throws(SessionStoreError) -> Session? {
    try authentication.restore()
  }

  /// Every change of the session (login, renewal, logout, expiry), starting with the current one.
  ///
  /// Each call returns a new stream; it ends when the caller stops iterating. The same changes
  /// are posted as `Notification.Name.convoySessionDidChange`.
  public func sessionChanges() -> AsyncStream<Session?> {
    authentication.changes()
  }
}
