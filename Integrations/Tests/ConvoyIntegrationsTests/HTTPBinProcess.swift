import Foundation

/// The repository's real httpbin (`scripts/httpbin_server.py`) on a free loopback port, started
/// once per test process and stopped at exit; `nil` when the test servers are not installed
/// (`scripts/test` installs them into `.venv`).
enum HTTPBinProcess {
  static let baseURL: URL? = start()

  private static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  private static func start() -> URL? {
    let python =
      ProcessInfo.processInfo.environment["CONVOY_HTTPBIN_PYTHON"]
      ?? repositoryRoot.appendingPathComponent(".venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      repositoryRoot.appendingPathComponent("scripts/httpbin_server.py").path, "127.0.0.1",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    stopAtExit(process.processIdentifier)
    // The script prints `LISTENING <host> <port>` once it accepts connections.
    var line = Data()
    while let byte = try? output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
      byte != Data("\n".utf8)
    {
      line.append(byte)
    }
    let parts = String(decoding: line, as: UTF8.self).split(separator: " ")
    guard parts.count >= 3, parts[0] == "LISTENING" else { return nil }
    return URL(string: "http://\(parts[1]):\(parts[2])/")
  }

  private static let started = Mutex<[Int32]>([])

  private static func stopAtExit(_ pid: Int32) {
    let isFirst = started.withLock { pids in
      pids.append(pid)
      return pids.count == 1
    }
    if isFirst {
      atexit {
        for pid in HTTPBinProcess.started.withLock({ $0 }) { kill(pid, SIGTERM) }
      }
    }
  }
}

/// A lock around a value (Synchronization's `Mutex` needs macOS 15).
final class Mutex<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
