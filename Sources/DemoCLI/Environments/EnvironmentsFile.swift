import Convoy
import Foundation

/// Reads `{"environments": {"name": "https://host/api/"}}`, where an environment may instead be
/// an object describing a standard OAuth2 server:
///
/// ```json
/// {"environments": {"id": {
///   "url": "https://api.example.com/",
///   "oauth": {"issuer": "https://id.example.com", "clientId": "democli",
///             "deviceAuthorizationEndpoint": "o/device-authorization/", "scopes": ["read"]}}}}
/// ```
///
/// `url` is the API's base URL (the issuer when missing); `oauth` takes `issuer` (discovery) or
/// `tokenEndpoint`, `authorizationEndpoint`, `deviceAuthorizationEndpoint`,
/// `revocationEndpoint`, and `clientId`, optionally `clientSecret`, `authenticationMethod`
/// (`client_secret_basic`, `client_secret_post`, `none`) and `scopes`.
enum EnvironmentsFile {
  /// One environment of the file.
  struct Environment: Sendable {
    var url: URL
    var oauth: OAuthClient?
  }

  /// The environments a file names, by name.
  ///
  /// Names become file names (`session-<name>.json`), so they are kept to letters, digits, `.`,
  /// `_` and `-`; URLs must be absolute `http` or `https` URLs with a host.
  static func read(_ file: URL, mustExist: Bool) throws(ConfigurationError)
    -> [String: Environment]
  {
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
    var result: [String: Environment] = [:]
    for (name, value) in environments {
      guard isValidName(name) else {
        throw .malformed(
          path: file.path,
          reason: "\"\(name)\" is not a usable name: use letters, digits, '.', '_' and '-'")
      }
      if let described = value as? [String: Any] {
        result[name] = try environment(named: name, described, in: file)
        continue
      }
      guard let url = (value as? String).flatMap(httpURL) else {
        throw .malformed(
          path: file.path, reason: "the URL of \"\(name)\" must be an http or https URL")
      }
      result[name] = Environment(url: url)
    }
    return result
  }

  private static func environment(
    named name: String, _ object: [String: Any], in file: URL
  ) throws(ConfigurationError) -> Environment {
    let malformed = { (reason: String) in
      ConfigurationError.malformed(path: file.path, reason: "\"\(name)\": \(reason)")
    }
    guard let oauth = object["oauth"] as? [String: Any] else {
      guard let url = (object["url"] as? String).flatMap(httpURL) else {
        throw malformed("give \"url\" (an http or https URL) or \"oauth\"")
      }
      return Environment(url: url)
    }
    let issuer = (oauth["issuer"] as? String).flatMap(httpURL)
    if oauth["issuer"] != nil, issuer == nil {
      throw malformed("the issuer must be an http(s) URL")
    }
    guard let clientID = oauth["clientId"] as? String, !clientID.isEmpty else {
      throw malformed("\"oauth\" needs a \"clientId\"")
    }
    let endpoints = OAuthEndpoints(
      issuer: issuer, token: oauth["tokenEndpoint"] as? String,
      authorization: oauth["authorizationEndpoint"] as? String,
      deviceAuthorization: oauth["deviceAuthorizationEndpoint"] as? String,
      revocation: oauth["revocationEndpoint"] as? String)
    guard issuer != nil || endpoints.token != nil else {
      throw malformed("\"oauth\" needs an \"issuer\" or a \"tokenEndpoint\"")
    }
    var method: OAuthClient.AuthenticationMethod?
    if let name = oauth["authenticationMethod"] as? String {
      guard let known = OAuthClient.AuthenticationMethod(rawValue: name) else {
        throw malformed("unknown authenticationMethod \"\(name)\"")
      }
      method = known
    }
    guard let url = (object["url"] as? String).flatMap(httpURL) ?? issuer else {
      throw malformed("give \"url\", the API's base URL")
    }
    return Environment(
      url: url,
      oauth: OAuthClient(
        id: clientID, secret: oauth["clientSecret"] as? String, authenticationMethod: method,
        scopes: oauth["scopes"] as? [String] ?? [], endpoints: endpoints))
  }

  private static func httpURL(_ text: String) -> URL? {
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
      url.host?.isEmpty == false
    else { return nil }
    return url
  }

  private static func isValidName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".")
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
  }
}
