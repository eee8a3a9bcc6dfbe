import Foundation

/// An executable of this package that SwiftPM built next to the test bundle (`democli`, the
/// durable queue's crash worker), for tests that run it as a child process.
public enum BuiltExecutable {
  /// The executable `name`, or an error that says where it was looked for.
  public static func url(named name: String) throws -> URL {
    let directories =
      [Bundle.main.executableURL?.deletingLastPathComponent()]
      + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
      .map { $0.bundleURL.deletingLastPathComponent() }
    for case let directory? in directories {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw Missing(name: name, searched: directories.compactMap { $0?.path })
  }

  /// The executable was not built.
  public struct Missing: Error, CustomStringConvertible {
    /// The executable's name.
    public var name: String
    /// Where it was looked for.
    public var searched: [String]
    /// What was missing and where it was looked for.
    public var description: String {
      "\(name) was not built next to the tests (looked in \(searched)); `swift test` builds it, "
        + "or run `swift build --product \(name)` first"
    }
  }
}
