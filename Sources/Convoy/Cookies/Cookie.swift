import Foundation

/// One cookie as a ``CookieJar`` keeps it (RFC 6265 §5.3).
public struct Cookie: Sendable, Hashable, Codable {
  /// The cookie's name.
  public var name: String
  /// The cookie's value. Never logged: it is often a session secret.
  public var value: String
  /// The host (host-only) or domain it is sent to, lower-cased, without a leading dot.
  public var domain: String
  /// Whether it goes to ``domain`` exactly, and not to its subdomains (no `Domain` attribute).
  public var isHostOnly: Bool
  /// The path prefix it is sent for.
  public var path: String
  /// When it expires; `nil` for a session cookie, which is never written to a file.
  public var expires: Date?
  /// Whether it is sent over HTTPS only.
  public var isSecure: Bool
  /// Whether scripts may not read it. Convoy has no scripts; it is kept so a jar round-trips.
  public var isHTTPOnly: Bool
  /// The `SameSite` attribute as sent (`Strict`, `Lax`, `None`), kept for apps that embed web
  /// views; Convoy's calls are all first-party, so it does not change what is sent.
  public var sameSite: String?
  /// When it was first stored; older cookies go first in the `Cookie` header and are evicted
  /// first.
  public var created: Date

  /// Creates a cookie.
  public init(
    name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
    expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false,
    sameSite: String? = nil, created: Date = Date()
  ) {
    self.name = name
    self.value = value
    self.domain = domain
    self.isHostOnly = isHostOnly
    self.path = path
    self.expires = expires
    self.isSecure = isSecure
    self.isHTTPOnly = isHTTPOnly
    self.sameSite = sameSite
    self.created = created
  }

  /// Whether it has expired at `now`.
  public func isExpired(at now: Date) -> Bool {
    expires.map { $0 <= now } ?? false
  }

  /// Whether it is sent with a request to `url` (RFC 6265 §5.4): domain, path and `Secure`.
  public func matches(_ url: URL) -> Bool {
    guard let host = url.host?.lowercased() else { return false }
    if isSecure, url.scheme?.lowercased() != "https" { return false }
    let domainMatches =
      isHostOnly ? host == domain : CookieDomain.host(host, domainMatches: domain)
    return domainMatches && CookieDomain.path(url.path.isEmpty ? "/" : url.path, matches: path)
  }
}

extension Cookie: CustomStringConvertible {
  /// `name=<redacted>; Domain=…; Path=…` — the value is never shown.
  public var description: String {
    "\(name)=\(SecretRedactor.mask); Domain=\(domain); Path=\(path)"
      + (isSecure ? "; Secure" : "") + (isHostOnly ? "; host-only" : "")
  }
}
