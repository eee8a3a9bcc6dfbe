/// Keeps a session across launches.
///
/// Convoy ships ``FileSessionStore`` (Linux and any platform), `KeychainSessionStore` (Apple
/// platforms) and ``InMemorySessionStore`` (tests, and apps that must not persist).
public protocol SessionStore: Sendable {
  /// The saved session, or `nil` when none was saved.
  /// - Throws: ``SessionStoreError`` when one was saved but cannot be read.
  func loadSession() throws(SessionStoreError) -> Session?
  /// Saves `session`, replacing any saved one.
  func saveSession(_ session: Session) throws(SessionStoreError)
  /// Removes the saved session; removing none is not an error.
  func removeSession() throws(SessionStoreError)
}

/// A store that keeps the session in memory only.
public final class InMemorySessionStore: SessionStore {
  private let stored = Locked<Session?>(nil)

  /// Creates an empty store, or one holding `session`.
  public init(session: Session? = nil) {
    stored.withLock { $0 = session }
  }

  /// The session held, if any.
  public func loadSession() throws(SessionStoreError) -> Session? { stored.current }
  /// Holds `session`.
  public func saveSession(_ session: Session) throws(SessionStoreError) {
    stored.withLock { $0 = session }
  }
  /// Forgets the session.
  public func removeSession() throws(SessionStoreError) { stored.withLock { $0 = nil } }
}
