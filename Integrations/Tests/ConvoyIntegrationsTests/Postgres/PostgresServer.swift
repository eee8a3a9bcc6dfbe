import Foundation
import PostgresNIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real PostgreSQL server of a suite's own: `initdb` into a temporary folder, `postgres` on a
/// free port of 127.0.0.1 (trust authentication, loopback only), stopped and its folder deleted
/// when the suite ends, passed or failed.
///
/// The programs are Debian's `postgresql` package (`.ci/run` installs it): found through
/// `CONVOY_POSTGRES_BIN`, `pg_config --bindir`, or `/usr/lib/postgresql/<version>/bin`.
/// PostgreSQL refuses to run as root, so as root the harness runs it as `nobody` (`setpriv`).
/// Where it is missing, a plain `swift test` skips the suites; `CONVOY_REQUIRE_PEERS=1` (CI)
/// makes them fail instead.
///
/// `@unchecked Sendable`: its only reference, the server's `Process`, is never changed after
/// `start()`, and is only signalled and asked whether it runs.
final class PostgresServer: @unchecked Sendable {
  /// The server of the suite being run.
  @TaskLocal static var current: PostgresServer?

  /// The port it listens on, on 127.0.0.1.
  let port: Int
  private let directory: URL
  private let process: Process
  private let binDirectory: URL

  /// The database user `initdb` made; trust authentication, so no password.
  static let user = "convoy"
  static let database = "postgres"

  /// Whether the suites that need a server run here.
  static let isAvailable =
    binDirectory != nil || ProcessInfo.processInfo.environment["CONVOY_REQUIRE_PEERS"] == "1"

  static let binDirectory: URL? = findBinDirectory()

  /// Why the suites are skipped when they are.
  static let missingComment: Comment = "PostgreSQL is not installed (apt-get install postgresql)"

  private init(port: Int, directory: URL, process: Process, binDirectory: URL) {
    self.port = port
    self.directory = directory
    self.process = process
    self.binDirectory = binDirectory
  }

  /// A client of the server, running while `body` runs.
  func withClient<Result: Sendable>(
    _ body: (PostgresClient) async throws -> Result
  ) async throws -> Result {
    let client = PostgresClient(
      configuration: .init(
        host: "127.0.0.1", port: port, username: Self.user, password: nil,
        database: Self.database, tls: .disable))
    let runner = Task { await client.run() }
    defer { runner.cancel() }
    return try await body(client)
  }

  // MARK: - Starting and stopping

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Makes a cluster and starts a server on it; tries again on another port if one was taken
  /// between choosing it and binding it (other test processes share the machine).
  static func start() throws -> PostgresServer {
    guard let bin = binDirectory else {
      throw Failure(
        description:
          "PostgreSQL's programs were not found: apt-get install postgresql (or set "
          + "CONVOY_POSTGRES_BIN to the folder of initdb and postgres)")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-postgres-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    do {
      try handOver(directory)
      let initdb = try run(
        bin.appendingPathComponent("initdb"),
        [
          "-D", directory.appendingPathComponent("data").path, "-A", "trust", "-U", user,
          "-E", "UTF8", "--no-sync",
        ], output: directory.appendingPathComponent("initdb.log"))
      guard waitForExit(initdb, seconds: 120) == 0 else {
        throw Failure(description: "initdb failed:\n\(tail(of: "initdb.log", in: directory))")
      }
      var lastFailure = ""
      for _ in 0..<3 {
        let port = try freePort()
        let server = try run(
          bin.appendingPathComponent("postgres"),
          [
            "-D", directory.appendingPathComponent("data").path, "-k", directory.path,
            "-h", "127.0.0.1", "-p", "\(port)",
            // Durability is not what these tests test, and fsync on a shared disk is slow.
            "-c", "fsync=off", "-c", "synchronous_commit=off",
          ], output: directory.appendingPathComponent("server.log"))
        let started = PostgresServer(
          port: port, directory: directory, process: server, binDirectory: bin)
        if started.waitUntilAcceptingConnections() { return started }
        lastFailure = tail(of: "server.log", in: directory)
        started.stopProcess()
      }
      throw Failure(description: "postgres did not start:\n\(lastFailure)")
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
  }

  /// Stops the server (a fast shutdown, then SIGKILL after 30 s) and deletes its folder.
  func stop() {
    stopProcess()
    try? FileManager.default.removeItem(at: directory)
  }

  private func stopProcess() {
    kill(process.processIdentifier, SIGINT)
    if Self.waitForExit(process, seconds: 30) == nil {
      kill(process.processIdentifier, SIGKILL)
      Self.waitForExit(process, seconds: 10)
    }
  }

  /// Asks `pg_isready` every 100 ms, for at most 30 s, and stops asking if the server exited.
  private func waitUntilAcceptingConnections() -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if !process.isRunning { return false }
      if let ready = try? Self.run(
        binDirectory.appendingPathComponent("pg_isready"),
        ["-q", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", Self.database],
        output: nil, asServerUser: false),
        Self.waitForExit(ready, seconds: 10) == 0
      {
        return true
      }
      usleep(100_000)
    }
    return false
  }

  // MARK: - Processes

  /// Starts `program`, as `nobody` when this process is root; its output goes to `output`.
  private static func run(
    _ program: URL, _ arguments: [String], output: URL?, asServerUser: Bool = true
  ) throws -> Process {
    let process = Process()
    if asServerUser, getuid() == 0 {
      // setpriv execs the program, so the pid is the server's own and signals reach it.
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments =
        ["--reuid=\(nobody.uid)", "--regid=\(nobody.gid)", "--clear-groups", program.path]
        + arguments
    } else {
      process.executableURL = program
      process.arguments = arguments
    }
    process.standardInput = FileHandle.nullDevice
    if let output {
      guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
        throw Failure(description: "could not create \(output.path)")
      }
      try handOver(output)
      let handle = try FileHandle(forWritingTo: output)
      process.standardOutput = handle
      process.standardError = handle
    } else {
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    return process
  }

  /// The exit status of `process`, or `nil` when it still runs after `seconds`.
  @discardableResult
  private static func waitForExit(_ process: Process, seconds: Double) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning {
      guard Date() < deadline else { return nil }
      usleep(20_000)
    }
    return process.terminationStatus
  }

  /// Gives `url` to `nobody` when this process is root, so that the server may write there.
  private static func handOver(_ url: URL) throws {
    guard getuid() == 0 else { return }
    guard chown(url.path, nobody.uid, nobody.gid) == 0 else {
      throw Failure(description: "chown \(url.path) failed: errno \(errno)")
    }
  }

  private static let nobody: (uid: uid_t, gid: gid_t) = {
    guard let entry = getpwnam("nobody") else { return (65534, 65534) }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }()

  private static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
    guard bound else { throw Failure(description: "bind: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func tail(of name: String, in directory: URL) -> String {
    let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
    return text.map { String($0.suffix(2_000)) } ?? "(no \(name))"
  }

  private static func findBinDirectory() -> URL? {
    let fileManager = FileManager.default
    func hasServer(_ path: String) -> Bool {
      fileManager.isExecutableFile(atPath: path + "/initdb")
        && fileManager.isExecutableFile(atPath: path + "/postgres")
    }
    if let path = ProcessInfo.processInfo.environment["CONVOY_POSTGRES_BIN"], hasServer(path) {
      return URL(fileURLWithPath: path)
    }
    // Debian's pg_config names its server's folder; the client packages alone have no initdb.
    if let pgConfig = ["/usr/bin/pg_config", "/usr/local/bin/pg_config"].first(where: {
      fileManager.isExecutableFile(atPath: $0)
    }) {
      let process = Process()
      let output = Pipe()
      process.executableURL = URL(fileURLWithPath: pgConfig)
      process.arguments = ["--bindir"]
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      if (try? process.run()) != nil {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self)
          .trimmingCharacters(in: .whitespacesAndNewlines)
        if hasServer(path) { return URL(fileURLWithPath: path) }
      }
    }
    let versions =
      ((try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
      .compactMap(Int.init).sorted(by: >)
    for version in versions where hasServer("/usr/lib/postgresql/\(version)/bin") {
      return URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
    }
    return nil
  }
}

/// Runs a suite with a ``PostgresServer`` of its own, in ``PostgresServer/current``.
struct PostgresServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let server = try PostgresServer.start()
    defer { server.stop() }
    try await PostgresServer.$current.withValue(server) { try await function() }
  }
}

extension Trait where Self == PostgresServerTrait {
  /// A PostgreSQL server for the suite (``PostgresServerTrait``).
  static var postgresServer: Self { PostgresServerTrait() }
}
