import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a request does about a stored answer (RFC 9111 §4): serve it, revalidate it, load
/// anew, or fail because the policy forbids the network.
enum CacheDecision {
  case serve(CacheEntry)
  case validate(CacheEntry)
  case load
  case unavailable

  init(request: URLRequest, entry: CacheEntry?, policy: CachePolicy, now: Date) {
    guard let entry, policy != .reloadIgnoringCache else {
      self = policy == .returnCacheDontLoad ? .unavailable : .load
      return
    }
    let ask: CacheDecision = entry.hasValidators ? .validate(entry) : .load
    let requestControl = CacheControl(request.value(forHTTPHeaderField: "Cache-Control"))
    // RFC 9111 §5.4: `Pragma: no-cache` counts only when the request has no `Cache-Control`.
    let pragmaNoCache =
      request.value(forHTTPHeaderField: "Cache-Control") == nil
      && request.value(forHTTPHeaderField: "Pragma")?.lowercased().contains("no-cache") == true
    let responseControl = entry.cacheControl
    // §5.2.1.4 and §5.2.2.4: `no-cache` on either side means never without validation.
    let mustValidate = responseControl.noCache || requestControl.noCache || pragmaNoCache
    let age = entry.currentAge(now: now)
    // §5.2.1.1: the client's `max-age` caps the age it accepts.
    let isFresh =
      entry.freshnessLifetime > age && requestControl.maxAge.map { age <= Double($0) } ?? true
    // §5.2.2.2: a stale `must-revalidate` answer is never served, whatever the client allows.
    let mayServeStale = !mustValidate && !(responseControl.mustRevalidate && !isFresh)
    switch policy {
    case .useProtocolPolicy:
      self = isFresh && !mustValidate ? .serve(entry) : ask
    case .reloadRevalidatingCache, .reloadIgnoringCache:
      self = ask
    case .returnCacheElseLoad:
      self = mayServeStale ? .serve(entry) : ask
    case .returnCacheDontLoad:
      self = mayServeStale ? .serve(entry) : .unavailable
    }
  }
}
