import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Freshness and validation of a stored response (RFC 9111 §4.2, §4.3).
///
/// Heuristic freshness (§4.2.2) is deliberately not computed: a response without `max-age` or
/// `Expires` is stale at once and is revalidated when it carries a validator. Guessing a
/// lifetime from `Last-Modified` would serve API data the server never said may be reused.
extension CacheEntry {
  /// RFC 9111 §4.2.1: `max-age` (`s-maxage` is for shared caches), else `Expires` − `Date`.
  /// An invalid `Expires` (such as `0`) means already expired (§5.3).
  var freshnessLifetime: TimeInterval {
    if let maxAge = cacheControl.maxAge { return TimeInterval(maxAge) }
    guard let expires = headers["Expires"] else { return 0 }
    guard let expiry = HTTPDate.parse(expires) else { return 0 }
    return expiry.timeIntervalSince(dateValue)
  }

  /// The origin's `Date`, or the time the response arrived when it has none (RFC 9110 §6.6.1).
  var dateValue: Date {
    headers["Date"].flatMap(HTTPDate.parse) ?? responseDate
  }

  /// RFC 9111 §4.2.3 `current_age`: the age the response had on arrival, corrected for the
  /// round trip, plus the time it has spent here since.
  func currentAge(now: Date) -> TimeInterval {
    let apparentAge = max(0, responseDate.timeIntervalSince(dateValue))
    // Delta-seconds only: reading `Age` as any number would let `1e300` through, which
    // overflows when the stored answer is served with its `Age`.
    let ageValue = TimeInterval(
      headers["Age"].flatMap { CacheControl.deltaSeconds($0.trimmingCharacters(in: .whitespaces)) }
        ?? 0)
    let responseDelay = responseDate.timeIntervalSince(requestDate)
    let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
    return correctedInitialAge + now.timeIntervalSince(responseDate)
  }

  func isFresh(now: Date) -> Bool {
    freshnessLifetime > currentAge(now: now)
  }

  /// Whether this answer may stand in for a failed load of `request` at all (RFC 5861 §4): it
  /// says `stale-if-error`, and neither side forbids serving it stale (RFC 9111 §4.2.4:
  /// `no-cache` or `must-revalidate` on the answer, `no-cache` on the request).
  func mayStandInForFailure(of request: URLRequest) -> Bool {
    let control = cacheControl
    guard control.seconds("stale-if-error") != nil, !control.noCache, !control.mustRevalidate
    else { return false }
    return !CacheControl(request.value(forHTTPHeaderField: "Cache-Control")).noCache
  }

  /// Whether it is no staler than its `stale-if-error` allows at `now`.
  func isWithinStaleIfError(now: Date) -> Bool {
    guard let allowance = cacheControl.seconds("stale-if-error") else { return false }
    return currentAge(now: now) - freshnessLifetime <= TimeInterval(allowance)
  }

  var hasValidators: Bool { headers.contains("ETag") || headers.contains("Last-Modified") }

  /// The conditional headers that revalidate this response (RFC 9111 §4.3.1): the entity tag as
  /// it was given, and `Last-Modified` as the date, which §4.3.1 prefers over a computed one.
  var validatingHeaders: [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    if let etag = headers["ETag"] { result.append(("If-None-Match", etag)) }
    if let lastModified = headers["Last-Modified"] {
      result.append(("If-Modified-Since", lastModified))
    }
    return result
  }

  /// Whether a `304` describes this response (RFC 9111 §4.3.4): its validators, where it
  /// sends them, equal the stored ones; weak and strong tags compare by their opaque part.
  func isDescribed(by notModified: HTTPHeaders) -> Bool {
    if let etag = notModified["ETag"], let stored = headers["ETag"] {
      return Self.opaqueTag(etag) == Self.opaqueTag(stored)
    }
    if let lastModified = notModified["Last-Modified"], let stored = headers["Last-Modified"] {
      return HTTPDate.parse(lastModified) == HTTPDate.parse(stored)
    }
    return true
  }

  private static func opaqueTag(_ tag: String) -> String {
    let trimmed = tag.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
  }

  /// Headers a `304` must not replace (RFC 9111 §3.2): `Content-Length` describes the stored
  /// body, and hop-by-hop fields (RFC 9110 §7.6.1) describe only the connection they came on.
  private static let keptOnUpdate: Set<String> = [
    "content-length", "connection", "keep-alive", "proxy-connection", "te", "trailer",
    "transfer-encoding", "upgrade",
  ]

  /// This entry with a `304`'s header fields merged in and its clock restarted (RFC 9111 §3.2,
  /// §4.3.4).
  func freshened(with notModified: HTTPHeaders, requestDate: Date, responseDate: Date)
    -> CacheEntry
  {
    var updated = self
    var replacement = HTTPHeaders()
    for field in notModified where !Self.keptOnUpdate.contains(field.name.lowercased()) {
      replacement.add(name: field.name, value: field.value)
    }
    // A 304 without `Date` or `Age` would otherwise leave the old ones to age the entry anew.
    var stored = headers
    stored.remove("Date")
    stored.remove("Age")
    updated.headers = stored.merging(replacement)
    updated.requestDate = requestDate
    updated.responseDate = responseDate
    return updated
  }
}
