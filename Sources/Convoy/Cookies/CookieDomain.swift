import Foundation

/// RFC 6265's domain and path matching, and the public suffixes no cookie may be set for.
enum CookieDomain {
  /// §5.1.3: `host` equals `domain`, or ends with `.domain` and is a name, not an IP address.
  static func host(_ host: String, domainMatches domain: String) -> Bool {
    if host == domain { return true }
    return host.hasSuffix("." + domain) && !isIPAddress(host)
  }

  /// §5.1.4: the cookie path is a prefix of the request path at a `/` boundary.
  static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
    if requestPath == cookiePath { return true }
    guard requestPath.hasPrefix(cookiePath) else { return false }
    return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
  }

  /// §5.1.4: the directory of the request path, the default `Path` of a cookie.
  static func defaultPath(of url: URL) -> String {
    let path = url.path
    guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex
    else { return "/" }
    return String(path[..<slash])
  }

  static func isIPAddress(_ host: String) -> Bool {
    host.contains(":") || host.split(separator: ".").allSatisfy { UInt8($0) != nil }
  }

  /// Whether `domain` is a public suffix a cookie must not be set for (§5.3 step 5).
  ///
  /// Without the Public Suffix List (Convoy ships no data files), this catches what can be told
  /// reliably: every single-label domain (`com`, `org`, `localhost` as a `Domain` attribute) and
  /// the common two-label registries below.
  static func isPublicSuffix(_ domain: String) -> Bool {
    !domain.contains(".") || knownPublicSuffixes.contains(domain)
  }

  private static let knownPublicSuffixes: Set<String> = [
    "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk",
    "com.au", "net.au", "org.au", "edu.au", "gov.au",
    "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp",
    "co.nz", "org.nz", "com.br", "com.cn", "com.mx", "com.tr", "co.in", "co.za", "co.kr",
    "github.io", "herokuapp.com", "appspot.com", "cloudfront.net", "azurewebsites.net",
    "blogspot.com", "pages.dev", "vercel.app", "netlify.app",
  ]
}
