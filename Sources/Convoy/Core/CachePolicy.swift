import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How one request uses the connection's ``HTTPCache``.
///
/// The policy travels on the request as `URLRequest.cachePolicy`, Foundation's own field for
/// it, so adapters can read or change it and every transport under a ``CachingTransport`` sees
/// it. ``CachingTransport`` always hands its transport `.reloadIgnoringLocalCacheData`, so no
/// platform cache acts a second time.
public enum CachePolicy: Sendable, Hashable, CaseIterable {
  /// RFC 9111: serve fresh answers without the network, revalidate stale ones that carry
  /// validators, load the rest. The default.
  case useProtocolPolicy
  /// Always load from the network and do not look at the cache; the answer is still stored.
  case reloadIgnoringCache
  /// Always ask the server: revalidate a stored answer (a `304` still serves its body),
  /// or load when there is none.
  case reloadRevalidatingCache
  /// Serve a stored answer whatever its age, unless it is marked `no-cache` or
  /// `must-revalidate` and stale (RFC 9111 §5.2.2.2 outranks the client); load otherwise.
  case returnCacheElseLoad
  /// Like ``returnCacheElseLoad`` but never touch the network: without a usable stored answer
  /// the call fails as `URLSession` does, with `URLError.resourceUnavailable`.
  case returnCacheDontLoad

  /// The Foundation policy that carries this one on a `URLRequest`.
  public var urlRequestCachePolicy: URLRequest.CachePolicy {
    switch self {
    case .useProtocolPolicy: .useProtocolCachePolicy
    case .reloadIgnoringCache: .reloadIgnoringLocalCacheData
    case .reloadRevalidatingCache: .reloadRevalidatingCacheData
    case .returnCacheElseLoad: .returnCacheDataElseLoad
    case .returnCacheDontLoad: .returnCacheDataDontLoad
    }
  }

  /// The policy a `URLRequest` carries; Foundation's proxy-ignoring variants reload.
  public init(_ policy: URLRequest.CachePolicy) {
    switch policy {
    case .useProtocolCachePolicy: self = .useProtocolPolicy
    case .reloadRevalidatingCacheData: self = .reloadRevalidatingCache
    case .returnCacheDataElseLoad: self = .returnCacheElseLoad
    case .returnCacheDataDontLoad: self = .returnCacheDontLoad
    default: self = .reloadIgnoringCache
    }
  }
}
