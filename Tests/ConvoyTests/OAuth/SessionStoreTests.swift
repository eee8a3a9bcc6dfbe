import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct SessionStoreTests {
  private let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-store-\(UUID().uuidString)")

  private func withCleanup(_ body: () async throws -> Void) async rethrows {
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body()
  }

  @Test func savesAndLoadsASessionReadableByItsOwnerOnly() async throws {
    try await withCleanup {
      let store = FileSessionStore(fileURL: directory.appendingPathComponent("s/session.json"))
      let session = TokenServer.session(token: "tok")
      try store.saveSession(session)
      #expect(try store.loadSession() == session)
      let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      let folder = try FileManager.default.attributesOfItem(
        atPath: store.fileURL.deletingLastPathComponent().path)
      #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
      let leftovers = try FileManager.default.contentsOfDirectory(
        atPath: store.fileURL.deletingLastPathComponent().path)
      #expect(leftovers == ["session.json"])
    }
  }

  @Test func nothingSavedLoadsAsNoSessionAndRemovingNothingIsFine() throws {
    let store = FileSessionStore(fileURL: directory.appendingPathComponent("none.json"))
    #expect(try store.loadSession() == nil)
    try store.removeSession()
  }

  @Test func aCorruptFileIsReportedAndLeftAlone() async throws {
    try await withCleanup {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let file = directory.appendingPathComponent("session.json")
      try Data("{not json".utf8).write(to: file)
      let store = FileSessionStore(fileURL: file)
      #expect {
        try store.loadSession()
      } throws: { error in
        guard case .corrupt = error as? SessionStoreError else { return false }
        return ErrorMessageProvider.standard.message(for: error)?.text
          == "Your saved login couldn't be read. Please log in again."
      }
      #expect(try Data(contentsOf: file) == Data("{not json".utf8))
      // A later good save replaces it.
      try store.saveSession(TokenServer.session(token: "fresh"))
      #expect(try store.loadSession()?.accessToken.value == "fresh")
    }
  }

  @Test func anUnreadableFileIsAnErrorNotACrash() async throws {
    try await withCleanup {
      let folderAsFile = directory.appendingPathComponent("session.json")
      try FileManager.default.createDirectory(at: folderAsFile, withIntermediateDirectories: true)
      #expect(throws: SessionStoreError.self) {
        try FileSessionStore(fileURL: folderAsFile).loadSession()
      }
    }
  }

  @Test func followsTheXDGStateDirectory() {
    let store = FileSessionStore(
      applicationName: "democli", environment: .staging,
      environmentVariables: ["XDG_STATE_HOME": "/srv/state", "HOME": "/home/a"])
    #expect(store.fileURL.path == "/srv/state/democli/session-staging.json")
    let fallback = FileSessionStore(
      applicationName: "democli", environment: .production,
      environmentVariables: ["XDG_STATE_HOME": "relative/ignored", "HOME": "/home/a"])
    #expect(fallback.fileURL.path == "/home/a/.local/state/democli/session-production.json")
  }

  @Test func aConnectionRestoresItsSessionAndLogoutRemovesIt() async throws {
    try await withCleanup {
      let store = FileSessionStore(fileURL: directory.appendingPathComponent("session.json"))
      let configuration = ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com")!)
      let transport = StubTransport { _ in .status(204) }
      let first = ServerConnection(
        configuration: configuration, transport: transport, sessionStore: store)
      try first.login(session: TokenServer.session(token: "persisted"))

      let second = ServerConnection(
        configuration: configuration, transport: transport, sessionStore: store)
      #expect(second.session == nil)
      #expect(try second.restoreSession()?.accessToken.value == "persisted")
      #expect(second.session?.accessToken.value == "persisted")

      try await second.logout()
      #expect(second.session == nil)
      #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
    }
  }

  @Test func sessionChangesArePostedAsNotifications() async throws {
    let connection = ServerConnection(
      configuration: .local(port: 1), transport: StubTransport { _ in .status(204) })
    let posted = Locked<[Bool]>([])
    let observer = NotificationCenter.default.addObserver(
      forName: .convoySessionDidChange, object: connection, queue: nil
    ) { notification in
      if let loggedIn = notification.userInfo?[SessionChange.loggedInKey] as? Bool {
        posted.withLock { $0.append(loggedIn) }
      }
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    try connection.login(session: TokenServer.session(token: "n"))
    try await connection.logout()
    #expect(posted.current == [true, false])
  }
}

@Suite struct SessionStoreFailureTests {
  /// Saves the first session (the login) and refuses every later write.
  final class ReadOnlyAfterLoginStore: SessionStore {
    private let saves = Locked(0)
    func loadSession() throws(SessionStoreError) -> Session? { nil }
    func saveSession(_ session: Session) throws(SessionStoreError) {
      let count = saves.withLock { count in
        count += 1
        return count
      }
      if count > 1 { throw .unwritable(location: "/readonly", reason: "EROFS") }
    }
    func removeSession() throws(SessionStoreError) {}
  }

  @Test func aRenewedSessionThatCannotBeSavedIsReportedNotLost() async throws {
    let server = TokenServer()
    let notices = Locked<[String]>([])
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com/")!,
        authentication: AuthenticationConfiguration(client: TokenServer.client)),
      transport: server.transport, sessionStore: ReadOnlyAfterLoginStore(),
      observers: [
        AnyEventObserver { event in
          if case .notice(let notice) = event.kind { notices.withLock { $0.append(notice.text) } }
        }
      ])
    try connection.login(session: TokenServer.session(token: "token-0"))
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
    #expect(connection.session?.accessToken.value == "token-2")
    #expect(
      notices.current.contains { $0.contains("session store failed") && $0.contains("EROFS") })
  }
}
