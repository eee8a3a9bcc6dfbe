/// The environments file could not be used; exit code 78 (`EX_CONFIG`).
enum ConfigurationError: Error, Sendable, Hashable {
  /// The file given with `--config` does not exist, or a file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not `{"environments": {"name": "https://…"}}`.
  case malformed(path: String, reason: String)
}
