import Foundation

/// The one place that knows what a secret looks like, so that error contexts, loggers and cURL
/// renderings redact the same things.
public enum SecretRedactor {
  /// What replaces a secret.
  public static let mask = "<redacted>"

  /// Header names whose values are always secret.
  public static let sensitiveHeaderNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
  ]

  /// Field and parameter names (lower-cased, `-` and `_` ignored) whose values are secret.
  public static let sensitiveFieldNames: Set<String> = [
    "password", "passwd", "secret", "clientsecret", "token", "accesstoken", "refreshtoken",
    "idtoken", "apikey", "key", "signature", "code", "assertion", "sessionid", "authorization",
    "devicecode", "codeverifier",
  ]

  /// Whether a header's value must not be shown.
  public static func isSensitiveHeader(_ name: String) -> Bool {
    sensitiveHeaderNames.contains(name.lowercased())
  }

  /// Whether a body field or query parameter's value must not be shown.
  public static func isSensitiveField(_ name: String) -> Bool {
    let folded = name.lowercased().filter { $0 != "_" && $0 != "-" }
    return sensitiveFieldNames.contains(folded)
  }

  /// The URL without user info and with sensitive query values masked.
  public static func redact(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return mask
    }
    components.user = nil
    components.password = nil
    if let items = components.percentEncodedQueryItems {
      components.percentEncodedQueryItems = items.map {
        isSensitiveField($0.name)
          ? URLQueryItem(name: $0.name, value: URLEncoding.encodeStrictly(mask)) : $0
      }
    }
    return components.string ?? mask
  }

  /// The headers with secret values masked.
  public static func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
    HTTPHeaders(
      headers.fields.map {
        isSensitiveHeader($0.name) ? .init(name: $0.name, value: mask) : $0
      })
  }

  // JSON `"name": "value"` and form `name=value` pairs whose name is sensitive.
  private static let jsonPair = try! NSRegularExpression(
    pattern: #""([A-Za-z_\-]+)"\s*:\s*"(?:[^"\\]|\\.)*""#)
  private static let formPair = try! NSRegularExpression(
    pattern: #"(^|[&?\s])([A-Za-z_\-]+)=([^&\s]*)"#)

  /// The text with values of sensitive JSON fields and form parameters masked.
  public static func redact(_ text: String) -> String {
    var result = replace(jsonPair, in: text, nameGroup: 1) { name in "\"\(name)\":\"\(mask)\"" }
    result = replace(formPair, in: result, nameGroup: 2) { name in "\(name)=\(mask)" }
    return result
  }

  private static func replace(
    _ expression: NSRegularExpression, in text: String, nameGroup: Int,
    with replacement: (String) -> String
  ) -> String {
    let source = text as NSString
    var output = ""
    var cursor = 0
    for match in expression.matches(in: text, range: NSRange(location: 0, length: source.length)) {
      let name = source.substring(with: match.range(at: nameGroup))
      guard isSensitiveField(name) else { continue }
      let nameStart = match.range(at: nameGroup).location
      // Keep any separator captured before the name (form pairs).
      let replaceStart = nameGroup == 1 ? match.range.location : nameStart
      output += source.substring(with: NSRange(location: cursor, length: replaceStart - cursor))
      output += replacement(name)
      cursor = match.range.location + match.range.length
    }
    output += source.substring(from: cursor)
    return output
  }

  /// A short, redacted excerpt of a body for error messages and logs, or `nil` for non-text.
  public static func excerpt(of data: Data, limit: Int = 512) -> String? {
    guard !data.isEmpty else { return nil }
    let prefix = data.prefix(limit)
    guard let text = String(data: prefix, encoding: .utf8) else { return nil }
    let redacted = redact(text)
    return data.count > limit ? redacted + "…" : redacted
  }
}
