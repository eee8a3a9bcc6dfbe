import ConvoyOpenAPIKit
import Foundation

/// Runs `convoy-openapi`: parses the command line, generates, writes files, reports.
enum OpenAPICommand {
  /// Convoy's version, which this generator ships with: the newest one CHANGELOG.md names (a test
  /// checks that they agree).
  static let version = "0.1.0"

  static let help = """
    convoy-openapi: write Convoy requests and Codable models from an OpenAPI 3.0/3.1 document.

    Usage: convoy-openapi generate <document> --output <directory> [options]

    <document> is YAML or JSON. Files in <directory> are replaced only when their contents change.

    Options:
      --output <directory>        where the Swift files go (created if missing)
      --namespace <name>          the enum that holds every generated type (default: API)
      --access public|internal    access level of the generated code (default: public)
      --config <file>             YAML/JSON: namespace, access, tags, operations, exclude, typeNames
      -q, --quiet                 print no warnings
      -h, --help                  show this help

    Exit codes:
    """

  static func run(arguments: [String]) -> ExitCode {
    do {
      let parsed = try CommandLineArguments.parse(arguments)
      if parsed.wantsHelp {
        let codes = ExitCode.allCases.map { "  \($0.rawValue)  \($0.summary)" }.joined(
          separator: "\n")
        writeOutput(help + "\n" + codes + "\n")
        return .success
      }
      if parsed.wantsVersion {
        writeOutput("convoy-openapi \(version)\n")
        return .success
      }
      return try generate(parsed)
    } catch {
      writeError(error.message + "\n")
      if error.exitCode == .usage { writeError("Run 'convoy-openapi --help' for usage.\n") }
      return error.exitCode
    }
  }

  private static func generate(_ arguments: CommandLineArguments) throws(CommandFailure) -> ExitCode
  {
    var options = GeneratorOptions()
    if let config = arguments.config {
      let text = try read(config) { .unreadableConfiguration(path: config, reason: $0) }
      do {
        try options.apply(configuration: text)
      } catch {
        throw .generation(error, source: config)
      }
    }
    if let namespace = arguments.namespace { options.namespace = namespace }
    if let access = arguments.access { options.access = access == "internal" ? .internal : .public }
    let documentPath = arguments.document!
    let text = try read(documentPath) { .unreadableDocument(path: documentPath, reason: $0) }
    let output: OpenAPIGenerator.Output
    do {
      output = try OpenAPIGenerator.generate(text, options: options)
    } catch {
      throw .generation(error, source: documentPath)
    }
    if !arguments.quiet {
      for warning in output.warnings { writeError("\(documentPath): warning: \(warning)\n") }
    }
    try write(output.files, to: arguments.output!)
    if !arguments.quiet {
      writeError(summary(of: output, in: arguments.output!) + "\n")
    }
    return .success
  }

  /// `Generated 1 operation in 3 files in Sources/API.`
  static func summary(of output: OpenAPIGenerator.Output, in directory: String) -> String {
    "Generated \(counted(output.operationCount, "operation")) in "
      + "\(counted(output.files.count, "file")) in \(directory)."
  }

  private static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  private static func read(
    _ path: String, failure: (String) -> CommandFailure
  ) throws(CommandFailure) -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw failure(
        FileManager.default.fileExists(atPath: path) ? "it is not readable" : "it does not exist")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw failure("it is not UTF-8 text")
    }
    return text
  }

  /// Writes each file unless it already holds the same text, so that a build plugin's outputs
  /// keep their dates and dependent code is not rebuilt for nothing.
  private static func write(_ files: [OpenAPIGenerator.File], to directory: String)
    throws(CommandFailure)
  {
    let manager = FileManager.default
    do {
      try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .cannotWrite(path: directory, reason: error.localizedDescription)
    }
    for file in files {
      let path = (directory as NSString).appendingPathComponent(file.name)
      let data = Data(file.contents.utf8)
      if manager.contents(atPath: path) == data { continue }
      do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
      } catch {
        throw .cannotWrite(path: path, reason: error.localizedDescription)
      }
    }
  }

  private static func writeOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  private static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
