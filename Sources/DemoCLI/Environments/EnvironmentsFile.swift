import Foundation

/// Reads `{"environments": {"name": "https://host/api/"}}`.
enum EnvironmentsFile {
  /// The environments a file names, by name.
  ///
  /// Names become file names (`session-<name>.json`), so they are kept to letters, digits, `.`,
  /// `_` and `-`; URLs must be absolute `http` or `https` URLs with a host.
  static func read(_ file: URL, mustExist: Bool) throws(ConfigurationError) -> [String: URL] {
    guard FileManager.default.fileExists(atPath: file.path) else {
      if mustExist { throw .unreadable(path: file.path, reason: "there is no such file") }
      return [:]
    }
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw .unreadable(path: file.path, reason: (error as NSError).localizedDescription)
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let environments = object["environments"] as? [String: Any]
    else {
      throw .malformed(
        path: file.path, reason: #"expected {"environments": {"name": "https://host/path/"}}"#)
    }
    var result: [String: URL] = [:]
    for (name, value) in environments {
      guard isValidName(name) else {
        throw .malformed(
          path: file.path,
          reason: "\"\(name)\" is not a usable name: use letters, digits, '.', '_' and '-'")
      }
      guard let text = value as? String, let url = URL(string: text),
        ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false
      else {
        throw .malformed(
          path: file.path, reason: "the URL of \"\(name)\" must be an http or https URL")
      }
      result[name] = url
    }
    return result
  }

  private static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".")
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
  }
}
