import ConvoyOpenAPIKit
import ConvoyTestSupport
import Foundation
import Testing

/// The package's root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The text of a fixture document in Tests/Fixtures/OpenAPI.
func fixture(_ name: String) throws -> String {
  try String(
    contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/OpenAPI/\(name)"),
    encoding: .utf8)
}

/// Generates from `document` (YAML), failing the test if the generator throws.
func generate(
  _ document: String, options: GeneratorOptions = GeneratorOptions(),
  sourceLocation: SourceLocation = #_sourceLocation
) -> OpenAPIGenerator.Output? {
  do {
    return try OpenAPIGenerator.generate(document, options: options)
  } catch {
    Issue.record("\(error)", sourceLocation: sourceLocation)
    return nil
  }
}

extension OpenAPIGenerator.Output {
  /// Every file's text, joined.
  var source: String { files.map(\.contents).joined(separator: "\n") }

  /// The source with every run of whitespace made one space, so checks ignore line breaks.
  var flatSource: String {
    source.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}

/// A minimal document around `schemas` (YAML, indented by four) and `paths` (indented by two).
func document(schemas: String = "", paths: String = "", version: String = "3.0.3") -> String {
  """
  openapi: \(version)
  info: {title: Test, version: '1'}
  paths:
  \(paths.isEmpty ? "  {}" : paths)
  components:
    schemas:
  \(schemas.isEmpty ? "    {}" : schemas)
  """
}

/// Type-checks generated files with the toolchain's compiler in Swift 6 mode, warnings as
/// errors, against the Convoy module this package's build made.
/// - Returns: The compiler's output when it fails, `nil` when the code is clean.
func compilerComplaints(about files: [OpenAPIGenerator.File]) async throws -> String? {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-openapi-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var paths: [String] = []
  for file in files {
    let url = directory.appendingPathComponent(file.name)
    try file.contents.write(to: url, atomically: true, encoding: .utf8)
    paths.append(url.path)
  }
  // The debug build's modules; under another scratch path (ThreadSanitizer runs), the ones
  // beside the running test bundle.
  let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("Modules").path
  let standard = packageRoot.appendingPathComponent(".build/debug/Modules").path
  let modules =
    FileManager.default.fileExists(atPath: standard + "/Convoy.swiftmodule")
    ? standard : besideTests
  let output = directory.appendingPathComponent("compiler-output")
  _ = FileManager.default.createFile(atPath: output.path, contents: nil)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments =
    ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules] + paths
  let handle = try FileHandle(forWritingTo: output)
  process.standardOutput = handle
  process.standardError = handle
  let exit = ProcessExit(process)
  try process.run()
  // Bounded: a compiler that hangs fails the test instead of the suite.
  guard await exit.wait(within: .seconds(120)) else {
    return "the compiler did not finish within 120 s"
  }
  try handle.close()
  let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
  return process.terminationStatus == 0 ? nil : text
}
