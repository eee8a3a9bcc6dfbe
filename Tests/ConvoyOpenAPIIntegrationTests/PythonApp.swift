import ConvoyTestSupport
import Foundation

/// A Python web app from `scripts/` serving on a free loopback port, stopped when the test
/// process ends (and by the app itself when its parent goes away).
///
/// The interpreter comes from `CONVOY_HTTPBIN_PYTHON` (set by `scripts/test`, which installs the
/// apps' packages into `.venv`), or else the package's `.venv`.
final class PythonApp: Sendable {
  let port: Int
  private let process: Process

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private init(port: Int, process: Process) {
    self.port = port
    self.process = process
  }

  /// Whether the Python in `.venv` can import `modules`: the apps are peers a plain `swift test`
  /// may not have, so their suites are skipped without them, unless `scripts/test` set
  /// `CONVOY_REQUIRE_PEERS=1`, which makes a missing one fail instead.
  static func canRun(importing modules: [String]) -> Bool {
    if ProcessInfo.processInfo.environment["CONVOY_REQUIRE_PEERS"] == "1" { return true }
    let python =
      ProcessInfo.processInfo.environment["CONVOY_HTTPBIN_PYTHON"]
      ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", "import " + modules.joined(separator: ", ")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard FileManager.default.isExecutableFile(atPath: python), (try? process.run()) != nil else {
      return false
    }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Starts `scripts/<script>` on 127.0.0.1 and waits (at most 60 s) for its port.
  static func start(_ script: String) throws -> PythonApp {
    let python =
      ProcessInfo.processInfo.environment["CONVOY_HTTPBIN_PYTHON"]
      ?? packageRoot.appendingPathComponent(".venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      throw Failure("Python is not installed in .venv: run scripts/test, which installs it")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [packageRoot.appendingPathComponent("scripts/\(script)").path, "127.0.0.1"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let line = try firstLine(of: output.fileHandleForReading, within: 60)
    let parts = line.split(separator: " ")
    guard parts.count == 3, parts[0] == "LISTENING", let port = Int(parts[2]) else {
      process.terminate()
      throw Failure("\(script) did not start (it said: \(line))")
    }
    return PythonApp(port: port, process: process)
  }

  /// Stops the app.
  func stop() {
    if process.isRunning { process.terminate() }
  }

  deinit { stop() }

  private static func firstLine(of handle: FileHandle, within seconds: TimeInterval) throws
    -> String
  {
    let box = LineBox()
    let thread = Thread {
      var bytes = Data()
      while let byte = try? handle.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
        bytes.append(byte)
      }
      box.set(String(decoding: bytes, as: UTF8.self))
    }
    thread.start()
    guard box.wait(seconds) else { throw Failure("no answer within \(Int(seconds)) s") }
    return box.line
  }
}

/// The first line an app prints, handed from the reading thread.
private final class LineBox: @unchecked Sendable {
  private let lock = NSLock()
  private let done = DispatchSemaphore(value: 0)
  private var value = ""

  func set(_ line: String) {
    lock.withLock { value = line }
    done.signal()
  }

  func wait(_ seconds: TimeInterval) -> Bool { done.wait(timeout: .now() + seconds) == .success }

  var line: String { lock.withLock { value } }
}

/// A test failure with a message.
struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs a command to its end (at most `seconds`), returning its status and combined output.
///
/// It waits for the process's end without blocking a thread: a build takes minutes, and a blocked
/// thread of the small cooperative pool stalls every other test of the process meanwhile.
func runCommand(
  _ arguments: [String], in directory: URL, within seconds: TimeInterval
) async throws -> (status: Int32, output: String) {
  let log = FileManager.default.temporaryDirectory.appendingPathComponent(
    "convoy-openapi-\(UUID().uuidString).log")
  _ = FileManager.default.createFile(atPath: log.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: log) }
  let handle = try FileHandle(forWritingTo: log)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  process.currentDirectoryURL = directory
  process.standardOutput = handle
  process.standardError = handle
  let exit = ProcessExit(process)
  try process.run()
  await exit.wait(within: .seconds(seconds))
  try handle.close()
  let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
  return (process.terminationReason == .exit ? process.terminationStatus : -1, output)
}

/// Builds the package at `directory` with `swift build` (at most `seconds`), after removing its
/// build plan: SwiftPM keeps the source list of a path dependency (Convoy itself) in the plan, and
/// a plan made before a file of Convoy moved fails with "missing inputs" until it is made again.
func buildPackage(at directory: URL, within seconds: TimeInterval) async throws
  -> (status: Int32, output: String)
{
  try? FileManager.default.removeItem(at: directory.appendingPathComponent(".build/debug.yaml"))
  return try await runCommand(["swift", "build"], in: directory, within: seconds)
}
