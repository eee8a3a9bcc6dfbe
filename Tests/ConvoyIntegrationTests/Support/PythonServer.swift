import Foundation

/// Starts one of the package's Python test servers (`scripts/*.py`) on a loopback host and
/// stops it when the test process exits.
///
/// The script prints `LISTENING <host> <port>` once ready and exits by itself when its parent
/// goes away. The interpreter comes from `CONVOY_HTTPBIN_PYTHON` (set by `scripts/test`), or
/// else the package's `.venv`.
enum PythonServer {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Runs `scripts/<script>` for `host`; returns its process and port, or stops the tests with
  /// what went wrong.
  static func start(script: String, host: String) -> (process: Process, port: Int) {
    let python =
      ProcessInfo.processInfo.environment["CONVOY_HTTPBIN_PYTHON"]
      ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      fatalError("the test servers are not installed: run scripts/test, which installs them")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [packageRoot.appendingPathComponent("scripts/\(script)").path, host]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      fatalError("could not start \(script): \(error)")
    }
    let line = readLine(from: output.fileHandleForReading)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "LISTENING", let port = Int(parts[2]) else {
      process.terminate()
      fatalError("\(script) did not start (it said: \(line))")
    }
    registerForExit(process.processIdentifier)
    return (process, port)
  }

  private static func readLine(from handle: FileHandle) -> String {
    var bytes = Data()
    while let byte = try? handle.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static let running = RunningServers()

  private static func registerForExit(_ pid: Int32) {
    if running.add(pid) {
      atexit {
        for pid in PythonServer.running.all { kill(pid, SIGTERM) }
      }
    }
  }
}

private final class RunningServers: @unchecked Sendable {
  private let lock = NSLock()
  private var pids: [Int32] = []

  /// Adds a pid; returns whether it is the first one.
  func add(_ pid: Int32) -> Bool {
    lock.withLock {
      pids.append(pid)
      return pids.count == 1
    }
  }

  var all: [Int32] { lock.withLock { pids } }
}
