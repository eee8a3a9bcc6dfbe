/// Why a saved session could not be read, written or removed.
public enum SessionStoreError: CategorizedError, Sendable, Hashable, CustomStringConvertible {
  /// The saved session exists but is not a session; the file is left as it is.
  case corrupt(location: String, reason: String)
  /// The saved session could not be read (permissions, I/O).
  case unreadable(location: String, reason: String)
  /// The session could not be saved or removed.
  case unwritable(location: String, reason: String)

  /// A developer-facing description; it never contains the session itself.
  public var description: String {
    switch self {
    case .corrupt(let location, let reason): "saved session at \(location) is corrupt: \(reason)"
    case .unreadable(let location, let reason):
      "saved session at \(location) is unreadable: \(reason)"
    case .unwritable(let location, let reason):
      "session at \(location) could not be written: \(reason)"
    }
  }

  /// ``ErrorCategory/savedLoginUnreadable``.
  public var category: ErrorCategory { .savedLoginUnreadable }
}
