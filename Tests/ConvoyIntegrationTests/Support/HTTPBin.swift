import Foundation

/// A real httpbin on a free loopback port, started once per test process and stopped at exit.
///
/// The Python interpreter comes from `CONVOY_HTTPBIN_PYTHON` (set by `scripts/test`), or else
/// the package's `.venv`. Two servers run, on 127.0.0.1 and 127.0.0.2, so tests can cross hosts.
final class HTTPBin: Sendable {
  let host: String
  let port: Int
  private let process: Process

  /// The server on 127.0.0.1.
  static let shared: HTTPBin = start(host: "127.0.0.1")
  /// A second server on another loopback host, for cross-host redirects.
  static let other: HTTPBin = start(host: "127.0.0.2")

  var baseURL: URL { URL(string: "http://\(host):\(port)")! }

  private init(host: String, port: Int, process: Process) {
    self.host = host
    self.port = port
    self.process = process
  }

  private static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  private static func start(host: String) -> HTTPBin {
    let python =
      ProcessInfo.processInfo.environment["CONVOY_HTTPBIN_PYTHON"]
      ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      fatalError("httpbin is not installed: run scripts/test, which installs it into .venv")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      packageRoot.appendingPathComponent("scripts/httpbin_server.py").path, host,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      fatalError("could not start httpbin: \(error)")
    }
    let line = readLine(from: output.fileHandleForReading)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "LISTENING", let port = Int(parts[2]) else {
      process.terminate()
      fatalError("httpbin did not start (it said: \(line))")
    }
    let server = HTTPBin(host: host, port: port, process: process)
    Self.registerForExit(server)
    return server
  }

  private static func readLine(from handle: FileHandle) -> String {
    var bytes = Data()
    while let byte = try? handle.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static let running = RunningServers()

  private static func registerForExit(_ server: HTTPBin) {
    if running.add(server.process.processIdentifier) {
      atexit {
        for pid in HTTPBin.running.all { kill(pid, SIGTERM) }
      }
    }
  }

  /// The URL for `path` (which may contain a query) on this server.
  func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + path)!
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
