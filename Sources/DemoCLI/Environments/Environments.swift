import Convoy
import Foundation

/// The environments democli knows: built-in defaults, then those of the user's JSON file, which
/// may add names or move a built-in one elsewhere.
///
/// The file is `--config PATH`, else `$XDG_CONFIG_HOME/democli/environments.json`, else
/// `~/.config/democli/environments.json`; a missing default file is no error:
///
/// ```json
/// {"environments": {"qa": "https://qa.example.com/api/"}}
/// ```
struct Environments: Sendable {
  /// Where an environment's URL came from.
  enum Source: String, Sendable {
    case builtIn = "built-in"
    case configFile = "config"
  }

  struct Entry: Sendable {
    var name: String
    var baseURL: URL
    var source: Source
    /// The OAuth2 client of an environment that is a standard server; `nil` for the demo API.
    var oauth: OAuthClient? = nil
  }

  /// The defaults; the hosts are made up (`.example`), so use `--simulate` or a config file.
  static let builtIn: [Entry] = [
    Entry(name: "local", baseURL: URL(string: "http://127.0.0.1:8080/")!, source: .builtIn),
    Entry(
      name: "staging", baseURL: URL(string: "https://staging.places.example/api/")!,
      source: .builtIn),
    Entry(
      name: "production", baseURL: URL(string: "https://places.example/api/")!, source: .builtIn),
  ]

  /// Every environment: built-in ones first, in their order, then the file's by name.
  let entries: [Entry]
  /// The file consulted, whether or not it exists.
  let configFile: URL

  /// Reads the environments file.
  ///
  /// - Parameters:
  ///   - configPath: `--config`; this file must exist.
  ///   - environmentVariables: Where `XDG_CONFIG_HOME` and `HOME` come from.
  static func load(
    configPath: String?, environmentVariables: [String: String]
  ) throws(ConfigurationError) -> Environments {
    let file =
      configPath.map { URL(fileURLWithPath: $0) }
      ?? defaultConfigFile(environmentVariables: environmentVariables)
    var entries = builtIn
    let configured = try EnvironmentsFile.read(file, mustExist: configPath != nil)
    for (name, environment) in configured.sorted(by: { $0.key < $1.key }) {
      let entry = Entry(
        name: name, baseURL: environment.url, source: .configFile, oauth: environment.oauth)
      if let index = entries.firstIndex(where: { $0.name == name }) {
        entries[index] = entry
      } else {
        entries.append(entry)
      }
    }
    return Environments(entries: entries, configFile: file)
  }

  /// `$XDG_CONFIG_HOME/democli/environments.json` or `~/.config/democli/environments.json`.
  static func defaultConfigFile(environmentVariables: [String: String]) -> URL {
    let base: URL
    if let config = environmentVariables["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      base = URL(fileURLWithPath: config, isDirectory: true)
    } else {
      let home =
        environmentVariables["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.homeDirectoryForCurrentUser
      base = home.appendingPathComponent(".config", isDirectory: true)
    }
    return base.appendingPathComponent("democli/environments.json")
  }

  /// The environment called `name`.
  func entry(named name: String) throws(UsageError) -> Entry {
    guard let entry = entries.first(where: { $0.name == name }) else {
      throw .invalidValue(
        option: "--env", value: name,
        expected: "one of " + entries.map(\.name).joined(separator: ", "))
    }
    return entry
  }
}
