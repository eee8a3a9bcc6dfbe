import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Saves the session as a JSON file readable by its owner only.
///
/// The file is written to a temporary file created with mode `0600` and then renamed over the
/// target, so a crash never leaves a half-written session and no other user can ever read it
/// (`Data.write(options: .atomic)` would create the file with the umask's mode first). A corrupt
/// file is reported, never deleted: a later good save replaces it.
public struct FileSessionStore: SessionStore {
  /// The file the session lives in.
  public let fileURL: URL

  /// A store at an explicit file.
  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// A store at `<state directory>/<applicationName>/session-<environment>.json`.
  ///
  /// The state directory follows the XDG Base Directory specification: `$XDG_STATE_HOME` when
  /// set to an absolute path, otherwise `~/.local/state`.
  public init(
    applicationName: String, environment: ServerEnvironment,
    environmentVariables: [String: String] = ProcessInfo.processInfo.environment
  ) {
    let directory = Self.stateDirectory(environmentVariables: environmentVariables)
      .appendingPathComponent(applicationName, isDirectory: true)
    self.init(fileURL: directory.appendingPathComponent("session-\(environment.rawValue).json"))
  }

  /// The user's XDG state directory.
  public static func stateDirectory(
    environmentVariables: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let state = environmentVariables["XDG_STATE_HOME"], state.hasPrefix("/") {
      return URL(fileURLWithPath: state, isDirectory: true)
    }
    let home =
      environmentVariables["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.homeDirectoryForCurrentUser
    return home.appendingPathComponent(".local/state", isDirectory: true)
  }

  /// Reads the saved session.
  public func loadSession() throws(SessionStoreError) -> Session? {
    guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
    let data: Data
    do {
      data = try Data(contentsOf: fileURL)
    } catch {
      throw .unreadable(location: fileURL.path, reason: Self.reason(error))
    }
    do {
      return try JSONDecoder().decode(Session.self, from: data)
    } catch {
      throw .corrupt(location: fileURL.path, reason: "not a saved session")
    }
  }

  /// Writes the session atomically with mode `0600`.
  public func saveSession(_ session: Session) throws(SessionStoreError) {
    let directory = fileURL.deletingLastPathComponent()
    let data: Data
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      data = try encoder.encode(session)
    } catch {
      throw .unwritable(location: fileURL.path, reason: Self.reason(error))
    }
    let temporary = directory.appendingPathComponent(
      ".\(fileURL.lastPathComponent).\(UUID().uuidString)")
    try write(data, toNewFileAt: temporary.path)
    guard rename(temporary.path, fileURL.path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary.path)
      throw .unwritable(location: fileURL.path, reason: reason)
    }
  }

  /// Deletes the file, if there is one.
  public func removeSession() throws(SessionStoreError) {
    guard unlink(fileURL.path) == 0 || errno == ENOENT else {
      throw .unwritable(location: fileURL.path, reason: String(cString: strerror(errno)))
    }
  }

  private func write(_ data: Data, toNewFileAt path: String) throws(SessionStoreError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else {
      throw .unwritable(location: path, reason: String(cString: strerror(errno)))
    }
    let failure = writeAll(data, to: descriptor)
    let written = failure == 0 && fsync(descriptor) == 0
    let reason = written ? "" : String(cString: strerror(failure == 0 ? errno : failure))
    close(descriptor)
    guard written else {
      unlink(path)
      throw .unwritable(location: path, reason: reason)
    }
  }

  private static func reason(_ error: any Error) -> String {
    (error as NSError).localizedDescription
  }
}
