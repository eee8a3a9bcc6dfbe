import Foundation

/// A test server run by a script in `scripts/` on a free loopback port, stopped at exit.
///
/// The script prints `LISTENING <host> <port> [more…]` once it accepts connections and exits by
/// itself when this process goes away; the interpreter is the package's `.venv` Python
/// (`CONVOY_HTTPBIN_PYTHON`, set by `scripts/test`). A server that cannot start stops the test
/// process with a message naming the fix, as a missing server would fail every test anyway.
struct LoopbackServerProcess: Sendable {
  /// The address the server listens on.
  let host: String
  /// The port the server listens on.
  let port: Int
  /// What the `LISTENING` line said after the port (e.g. nginx's access-log path).
  let details: [String]

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Starts `scripts/<script>` with `arguments` and waits for its `LISTENING` line.
  ///
  /// - Parameter removingAtExit: Directories the test process created for this server, removed
  ///   when the test process exits.
  static func start(
    script: String, arguments: [String], removingAtExit: [URL] = []
  ) -> LoopbackServerProcess {
    let scriptPath = packageRoot.appendingPathComponent("scripts/" + script).path
    let process = Process()
    if let python {
      process.executableURL = URL(fileURLWithPath: python)
      process.arguments = [scriptPath] + arguments
    } else if standardLibraryOnly.contains(script) {
      // Needs no package: the machine's python3 does, as on a machine with only the toolchain.
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["python3", scriptPath] + arguments
    } else {
      fatalError("the test servers are not installed: run scripts/test, which installs them")
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      fatalError("could not start \(script): \(error)")
    }
    ExitCleanup.shared.add(pid: process.processIdentifier, directories: removingAtExit)
    let line = readLine(from: output.fileHandleForReading)
    let parts = line.split(separator: " ").map(String.init)
    guard parts.count >= 3, parts[0] == "LISTENING", let port = Int(parts[2]) else {
      process.terminate()
      fatalError("\(script) did not start (it said: \(line)); run scripts/test to install it")
    }
    return LoopbackServerProcess(host: parts[1], port: port, details: Array(parts.dropFirst(3)))
  }

  /// The scripts that import nothing beyond Python's standard library.
  static let standardLibraryOnly: Set<String> = ["nginx_server.py"]

  /// The Python that runs the servers: `CONVOY_HTTPBIN_PYTHON` (set by `scripts/test`) or the
  /// package's `.venv`; `nil` when neither is there.
  static let python: String? = {
    let path =
      ProcessInfo.processInfo.environment["CONVOY_HTTPBIN_PYTHON"]
      ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }()

  private static func readLine(from handle: FileHandle) -> String {
    var bytes = Data()
    while let byte = try? handle.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// What the test process stops and removes when it exits: the servers it started and the
/// directories it made for them.
private final class ExitCleanup: @unchecked Sendable {
  static let shared = ExitCleanup()

  private let lock = NSLock()
  private var pids: [Int32] = []
  private var directories: [URL] = []
  private var registered = false

  func add(pid: Int32, directories more: [URL]) {
    let first = lock.withLock {
      pids.append(pid)
      directories += more
      let first = !registered
      registered = true
      return first
    }
    if first {
      atexit { ExitCleanup.shared.run() }
    }
  }

  private func run() {
    let (pids, directories) = lock.withLock { (self.pids, self.directories) }
    for pid in pids { kill(pid, SIGTERM) }
    for directory in directories { try? FileManager.default.removeItem(at: directory) }
  }
}
