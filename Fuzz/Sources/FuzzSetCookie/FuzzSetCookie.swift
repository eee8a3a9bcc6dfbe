// `Set-Cookie` and the cookie jar's domain rules. The first line of the input is the host the
// answer came from, the rest one `Set-Cookie` field. Checks: no crash; a cookie is only ever
// set for the host or a domain the host belongs to, never for a public suffix other than the
// host itself; and parse → serialize → parse gives the same cookie.
import Foundation

@testable import Convoy

private let now = Date(timeIntervalSince1970: 1_800_000_000)

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  let (hostLine, field) =
    text.firstIndex(of: "\n").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) }
    ?? ("www.example.com", text)
  var components = URLComponents()
  components.scheme = hostLine.hasPrefix("!") ? "http" : "https"
  components.host = hostLine.hasPrefix("!") ? String(hostLine.dropFirst()) : hostLine
  components.path = "/a/b"
  guard let url = components.url, let host = url.host?.lowercased() else { return 0 }

  guard let cookie = SetCookieParser.cookie(from: field, for: url, now: now) else { return 0 }
  precondition(!cookie.name.isEmpty, "a cookie without a name")
  precondition(
    cookie.domain == host || CookieDomain.host(host, domainMatches: cookie.domain),
    "a cookie set for a domain its host does not belong to")
  precondition(
    cookie.domain == host || !CookieDomain.isPublicSuffix(cookie.domain),
    "a cookie set for a public suffix")
  precondition(!cookie.isHostOnly || cookie.domain == host, "a host-only cookie for another host")
  precondition(!cookie.isSecure || url.scheme == "https", "a Secure cookie set over http")
  precondition(cookie.path.hasPrefix("/"), "a path that is not absolute")

  if let field = serialized(cookie) {
    let again = SetCookieParser.cookie(from: field, for: url, now: now)
    precondition(
      again.map(normalized) == normalized(cookie), "parse → serialize → parse changed the cookie")
  }

  // The jar applies the same rules, and sends the cookie back to the URL that set it. (The jar
  // also splits values a transport joined with commas, so only a field it reads as one counts.)
  let jar = CookieJar()
  jar.store(setCookieFields: [field], from: url, now: now)
  let isOneField = SetCookieParser.fields([field]) == [field.trimmingCharacters(in: .whitespaces)]
  if isOneField, !cookie.isExpired(at: now), cookie.matches(url) {
    precondition(jar.cookieHeader(for: url, now: now) != nil, "a stored cookie was not sent")
  }
  return 0
}

/// The cookie as a `Set-Cookie` field (RFC 6265 §4.1), the way a server would write it.
/// `nil` when the expiry is too far out for whole seconds to say it exactly.
private func serialized(_ cookie: Cookie) -> String? {
  var parts = ["\(cookie.name)=\(cookie.value)"]
  if !cookie.isHostOnly { parts.append("Domain=\(cookie.domain)") }
  parts.append("Path=\(cookie.path)")
  if let expires = cookie.expires {
    let seconds = expires.timeIntervalSince(now)
    guard seconds < 1e12 else { return nil }
    parts.append(
      expires == .distantPast || seconds <= 0
        ? "Max-Age=0" : "Max-Age=\(Int(seconds.rounded()))")
  }
  if cookie.isSecure { parts.append("Secure") }
  if cookie.isHTTPOnly { parts.append("HttpOnly") }
  if let sameSite = cookie.sameSite { parts.append("SameSite=\(sameSite)") }
  return parts.joined(separator: "; ")
}

/// Every expiry at or before `now` means the same: gone at once.
private func normalized(_ cookie: Cookie) -> Cookie {
  var cookie = cookie
  if cookie.isExpired(at: now) { cookie.expires = .distantPast }
  return cookie
}
