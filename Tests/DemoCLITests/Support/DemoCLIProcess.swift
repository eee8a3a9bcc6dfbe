import ConvoyTestSupport
import Foundation
import Testing

/// What one democli run printed and how it ended.
struct DemoCLIResult: Sendable {
  var status: Int32
  var stdout: String
  var stderr: String

  /// Standard output parsed as JSON.
  func json() throws -> Any {
    try JSONSerialization.jsonObject(with: Data(stdout.utf8))
  }

  /// Standard output parsed as a JSON object.
  func jsonObject() throws -> [String: Any] {
    try #require(try json() as? [String: Any], "not a JSON object: \(stdout)")
  }
}

/// A running democli process whose output goes to files, so no pipe can fill up and block it.
final class RunningDemoCLI: Sendable {
  /// The longest any democli run may take before it is killed and the test fails.
  static let timeLimit: TimeInterval = 30

  private let process: Process
  private let exit: ProcessExit
  private let stdoutFile: URL
  private let stderrFile: URL

  /// Where the process's standard streams lead.
  enum Streams {
    /// Output to files; input from `standardInput`, or none at all when `nil`.
    case files(standardInput: String?)
    /// All three on a pseudo-terminal's device, as for a person at a terminal.
    case terminal(PseudoTerminal)
  }

  init(
    executable: URL, arguments: [String], environment: [String: String], streams: Streams,
    directory: URL
  ) throws {
    let id = UUID().uuidString
    stdoutFile = directory.appendingPathComponent("stdout-\(id)")
    stderrFile = directory.appendingPathComponent("stderr-\(id)")
    _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    switch streams {
    case .files(let standardInput):
      process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
      process.standardError = try FileHandle(forWritingTo: stderrFile)
      if let standardInput {
        let inputFile = directory.appendingPathComponent("stdin-\(id)")
        _ = FileManager.default.createFile(
          atPath: inputFile.path, contents: Data(standardInput.utf8))
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
      } else {
        // CI runs democli with no standard input at all; /dev/null is the closest.
        process.standardInput = FileHandle.nullDevice
      }
    case .terminal(let terminal):
      process.standardInput = terminal.device
      process.standardOutput = terminal.device
      process.standardError = terminal.device
    }
    exit = ProcessExit(process)
    try process.run()
  }

  /// What standard error holds so far.
  var stderrSoFar: String {
    (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
  }

  /// What standard output holds so far.
  var stdoutSoFar: String {
    (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
  }

  /// Sends SIGINT, as Ctrl-C in a terminal does.
  func interrupt() {
    kill(process.processIdentifier, SIGINT)
  }

  /// Sends SIGKILL: the process dies at once, as an app the system kills, with no chance to
  /// clean up.
  func killAtOnce() {
    kill(process.processIdentifier, SIGKILL)
  }

  /// Waits until `condition` holds for standard error, for at most `limit` seconds.
  func waitForStderr(
    _ limit: TimeInterval = 10, until condition: @Sendable (String) -> Bool
  ) async throws -> Bool {
    try await poll(within: .seconds(limit)) { condition(stderrSoFar) ? true : nil } ?? false
  }

  /// Waits until `condition` holds for standard output, for at most `limit` seconds.
  func waitForStdout(
    _ limit: TimeInterval = 10, until condition: @Sendable (String) -> Bool
  ) async throws -> Bool {
    try await poll(within: .seconds(limit)) { condition(stdoutSoFar) ? true : nil } ?? false
  }

  /// Waits for the process to end, killing it after ``timeLimit``.
  func result() async -> DemoCLIResult {
    if !(await exit.wait(within: .seconds(Self.timeLimit))) {
      Issue.record("democli \(process.arguments ?? []) did not end within \(Self.timeLimit) s")
    }
    return DemoCLIResult(
      status: process.terminationStatus,
      stdout: (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "")
  }
}
