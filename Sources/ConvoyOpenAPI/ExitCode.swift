/// convoy-openapi's exit codes, from BSD's `sysexits.h` like democli's, so a build script can
/// tell a wrong command line from a broken document.
enum ExitCode: Int32, Sendable, CaseIterable {
  /// Done (warnings do not change this).
  case success = 0
  /// The command line was wrong (`EX_USAGE`).
  case usage = 64
  /// The document is not YAML/JSON, or not OpenAPI 3.0/3.1 (`EX_DATAERR`).
  case invalidDocument = 65
  /// The document file does not exist or cannot be read (`EX_NOINPUT`).
  case missingDocument = 66
  /// The output directory or a file in it cannot be written (`EX_CANTCREAT`).
  case cannotWrite = 73
  /// The configuration file is missing or malformed (`EX_CONFIG`).
  case configuration = 78

  /// What the code means, for `--help`.
  var summary: String {
    switch self {
    case .success: "done"
    case .usage: "the command line was wrong"
    case .invalidDocument: "the document is not valid YAML/JSON or not OpenAPI 3.0/3.1"
    case .missingDocument: "the document cannot be read"
    case .cannotWrite: "the output cannot be written"
    case .configuration: "the configuration file is missing or malformed"
    }
  }
}
