import Foundation

// Shared by the integration drivers: a failed check prints what went wrong and exits 1, so the
// test that runs the driver reports the line.

/// Stops the driver with `message` unless `condition` holds.
func check(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  line: Int = #line
) {
  guard condition() else {
    FileHandle.standardError.write(Data("check failed (line \(line)): \(message())\n".utf8))
    exit(1)
  }
}

/// The error `body` throws, or stops the driver when it does not throw.
func failure(_ body: () async throws -> Void, line: Int = #line) async -> any Error {
  do {
    try await body()
  } catch {
    return error
  }
  check(false, "expected an error", line: line)
  fatalError("unreachable")
}
