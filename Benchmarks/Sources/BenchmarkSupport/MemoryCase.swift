import Foundation

/// Runs this executable again as a memory case (`<executable> memory-case <arguments>`), so that
/// each client's peak RSS is measured in a fresh process, and returns the last line it printed:
/// `key=value` pairs, or `error=...` when it could not start.
public func memoryCaseLine(_ arguments: [String]) -> String {
  let process = Process()
  process.executableURL = Bundle.main.executableURL
  process.arguments = ["memory-case"] + arguments
  let output = Pipe()
  process.standardOutput = output
  do {
    try process.run()
  } catch {
    return "error=\(error)"
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  return text.split(separator: "\n").last.map(String.init) ?? "error=no-output"
}

/// The `key=value` pairs of a memory case's line.
public func memoryCaseFields(_ line: String) -> [String: String] {
  var fields: [String: String] = [:]
  for pair in line.split(separator: " ") {
    let parts = pair.split(separator: "=", maxSplits: 1)
    if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
  }
  return fields
}
