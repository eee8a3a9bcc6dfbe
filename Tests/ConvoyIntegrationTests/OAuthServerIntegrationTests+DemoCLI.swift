import Convoy
import ConvoyTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A private home for democli, with a config file naming the server as environment "dot".
private final class DemoCLIHome {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("democli-oauth-\(UUID().uuidString)", isDirectory: true)

  init(issuer: URL) throws {
    let config = directory.appendingPathComponent("config/democli/environments.json")
    try FileManager.default.createDirectory(
      at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
    let json = """
      {"environments": {"dot": {"oauth": {
        "issuer": "\(issuer.absoluteString)", "clientId": "convoy-device", "scopes": ["read"],
        "deviceAuthorizationEndpoint": "o/device-authorization/"}}}}
      """
    try Data(json.utf8).write(to: config)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var sessionFile: URL { directory.appendingPathComponent("state/democli/session-dot.json") }

  /// Starts democli; its output goes to files read by `output(_:)`.
  func start(_ arguments: [String]) throws -> (ProcessExit, URL, URL) {
    let process = Process()
    process.executableURL = try Self.democli()
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
    environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
    environment["HOME"] = directory.path
    process.environment = environment
    let id = UUID().uuidString
    let out = directory.appendingPathComponent("out-\(id)")
    let err = directory.appendingPathComponent("err-\(id)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    process.standardInput = FileHandle.nullDevice
    let exit = ProcessExit(process)
    try process.run()
    return (exit, out, err)
  }

  /// Runs democli to the end, at most 30 seconds.
  func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
    let (exit, out, _) = try start(arguments)
    let status = await Self.status(of: exit)
    return (status, try String(contentsOf: out, encoding: .utf8))
  }

  /// democli's exit status, waiting at most 30 seconds for it (then it is killed: a failure).
  static func status(of exit: ProcessExit) async -> Int32 {
    if !(await exit.wait(within: .seconds(30))) {
      Issue.record("democli did not finish within 30 s")
    }
    return exit.status
  }

  private static func democli() throws -> URL {
    // Where DemoCLITests look too: beside the test bundle SwiftPM built.
    let directories =
      [Bundle.main.executableURL?.deletingLastPathComponent()]
      + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
      .map { $0.bundleURL.deletingLastPathComponent() }
    let found = directories.compactMap { $0?.appendingPathComponent("democli") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "democli was not built next to the tests")
  }
}

/// democli run as a process against the real OAuth2 server: `login --device` approved by the
/// test on the server's pages, a protected listing, `logout` revoking. Part of the serialized
/// server suite, whose tests count the server's token requests.
extension OAuthServerIntegrationTests {
  @Test func democliLogsInWithADeviceCodeListsAndLogsOutRevoking() async throws {
    let server = await OAuthToolkit.shared()
    let home = try DemoCLIHome(issuer: server.issuer)
    let (login, loginOut, loginErr) = try home.start(["login", "--env", "dot", "--device"])
    // The person reads the code democli printed, and approves it on the server's pages.
    let code = try await poll(every: .milliseconds(50)) { () -> String? in
      let text = try String(contentsOf: loginErr, encoding: .utf8)
      guard let range = text.range(of: "enter the code ") else { return nil }
      return text[range.upperBound...].split(separator: ".").first.map(String.init)
    }
    let userCode = try #require(code, "democli printed no code")
    let browser = ScriptedBrowser()
    let page = try await browser.open(server.issuer.appendingPathComponent("o/device/"))
    let entry = try await browser.submit(page, ["username": "ada", "password": "lovelace"])
    let confirm = try await browser.submit(entry, ["user_code": userCode])
    _ = try await browser.submit(confirm, ["action": "accept"])
    #expect(await DemoCLIHome.status(of: login) == 0)
    #expect(try String(contentsOf: loginOut, encoding: .utf8).contains("Logged in to dot."))

    let places = try await home.run(["places", "--env", "dot", "--json"])
    #expect(places.status == 0)
    #expect(places.stdout.contains("Harbour Promenade"))

    let saved = try JSONDecoder().decode(Session.self, from: Data(contentsOf: home.sessionFile))
    let logout = try await home.run(["logout", "--env", "dot"])
    #expect(logout.status == 0)
    #expect(logout.stdout.contains("The server revoked the session."))
    #expect(!FileManager.default.fileExists(atPath: home.sessionFile.path))
    let connection = server.connection(client: server.deviceClient)
    await #expect {
      _ = try await connection.execute(
        AccessTokenRequest(
          grant: .refreshToken(try #require(saved.accessToken.refreshToken)),
          client: server.deviceClient, endpoint: "o/token/"))
    } throws: { ($0 as? AuthorizationError)?.code == .invalidGrant }
  }
}
