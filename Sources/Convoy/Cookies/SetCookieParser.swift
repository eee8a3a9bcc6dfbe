import Foundation

/// Reads `Set-Cookie` fields as RFC 6265 §5.2 says a user agent must, leniently: what cannot be
/// understood is ignored rather than failing the answer.
enum SetCookieParser {
  /// The cookie one `Set-Cookie` field sets for a response from `url`, or `nil` when the field
  /// must be ignored (no `=`, an empty name, a `Domain` the host may not set, a public suffix).
  static func cookie(from field: String, for url: URL, now: Date) -> Cookie? {
    guard let host = url.host?.lowercased() else { return nil }
    // Cut at Unicode scalars, not Characters: a delimiter followed by a combining mark (`=\u{301}`)
    // is one Character, and a Character view would not find it.
    let parts = field.unicodeScalars.split(separator: ";", omittingEmptySubsequences: false)
    guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
    let name = String(pair[..<equals]).trimmingCharacters(in: .whitespaces)
    let value = String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else { return nil }
    var cookie = Cookie(
      name: name, value: value, domain: host, path: CookieDomain.defaultPath(of: url),
      created: now)
    var maxAge: Date?
    var expires: Date?
    var hasDomainAttribute = false
    var hasRootPathAttribute = false
    for attribute in parts.dropFirst() {
      let (key, argument) = split(attribute)
      switch key {
      case "expires": expires = HTTPDate.parse(argument) ?? expires
      case "max-age":
        // §5.2.2: digits with an optional leading minus; zero or less expires at once.
        if let seconds = Int(argument) {
          maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(seconds))
        }
      case "domain":
        var domain = argument.lowercased()
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty else { continue }
        hasDomainAttribute = true
        // §5.3 step 5 and 6: no public suffix, and only the host's own domain.
        if CookieDomain.isPublicSuffix(domain) {
          guard domain == host else { return nil }
          continue  // host-only, as the RFC asks for a suffix that is the host itself
        }
        guard CookieDomain.host(host, domainMatches: domain) else { return nil }
        cookie.domain = domain
        cookie.isHostOnly = false
      case "path":
        if argument.hasPrefix("/") { cookie.path = argument }
        hasRootPathAttribute = argument == "/"
      case "secure": cookie.isSecure = true
      case "httponly": cookie.isHTTPOnly = true
      case "samesite": cookie.sameSite = argument.isEmpty ? nil : argument
      default: continue
      }
    }
    // §5.3 step 3: Max-Age wins over Expires.
    cookie.expires = maxAge ?? expires
    // A Secure cookie may only be set over HTTPS (RFC 6265bis §5.7 step 8).
    if cookie.isSecure, url.scheme?.lowercased() != "https" { return nil }
    guard
      honoursPrefix(
        of: cookie, hasDomainAttribute: hasDomainAttribute,
        hasRootPathAttribute: hasRootPathAttribute)
    else { return nil }
    return cookie
  }

  /// Whether a cookie keeps the promise its name makes (RFC 6265bis §4.1.3, §5.7 steps 20–21),
  /// as every browser checks: `__Secure-` only with `Secure`; `__Host-` only with `Secure`,
  /// without `Domain` (host-only) and with `Path=/`, so no other host or path can set or shadow
  /// it. The prefixes match whatever their case, as browsers match them now.
  private static func honoursPrefix(
    of cookie: Cookie, hasDomainAttribute: Bool, hasRootPathAttribute: Bool
  ) -> Bool {
    let name = cookie.name.lowercased()
    if name.hasPrefix("__secure-") { return cookie.isSecure }
    if name.hasPrefix("__host-") {
      return cookie.isSecure && !hasDomainAttribute && cookie.isHostOnly && hasRootPathAttribute
    }
    return true
  }

  /// The fields of `Set-Cookie` values: one per value, and a value that a transport joined with
  /// `", "` (FoundationNetworking's `HTTPURLResponse` does) split again where a new `name=`
  /// starts, which the commas inside an `Expires` date never do.
  static func fields(_ values: [String]) -> [String] {
    values.flatMap { value -> [String] in
      var fields: [String] = []
      var current = ""
      for piece in value.components(separatedBy: ",") {
        if !current.isEmpty, startsCookie(piece) {
          fields.append(current)
          current = piece
        } else {
          current += current.isEmpty ? piece : "," + piece
        }
      }
      if !current.isEmpty { fields.append(current) }
      return fields.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  private static func startsCookie(_ piece: String) -> Bool {
    let head = piece.unicodeScalars.prefix { $0 != ";" }
    guard let equals = head.firstIndex(of: "=") else { return false }
    let name = String(head[..<equals]).trimmingCharacters(in: .whitespaces)
    return !name.isEmpty && !name.contains(" ")
  }

  private static func split(_ attribute: Substring.UnicodeScalarView) -> (String, String) {
    guard let equals = attribute.firstIndex(of: "=") else {
      return (String(attribute).trimmingCharacters(in: .whitespaces).lowercased(), "")
    }
    return (
      String(attribute[..<equals]).trimmingCharacters(in: .whitespaces).lowercased(),
      String(attribute[attribute.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
    )
  }
}
