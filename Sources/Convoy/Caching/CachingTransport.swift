import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that answers from an ``HTTPCache`` when RFC 9111 allows, revalidates stale
/// answers, and hands everything else to the transport it wraps.
///
/// It sits under Convoy's redirect handling, like every transport, so each hop is looked up
/// and stored under the URL that was actually requested (a cacheable `301` is served from the
/// cache and then followed; a `302` to a cacheable resource costs one round trip for the `302`
/// only), and the call's deadline covers revalidations too.
///
/// - A fresh answer is served without the network.
/// - A stale answer with an `ETag` or `Last-Modified` is revalidated with `If-None-Match` /
///   `If-Modified-Since`; a `304` refreshes the stored headers and is delivered as the stored
///   answer (usually a `200` with the stored body), never as a `304`.
/// - A request that brings its own `If-None-Match`, `If-Modified-Since` or `Range` is the
///   caller's own protocol and passes through untouched.
/// - A successful `POST`, `PUT`, `PATCH` or `DELETE` removes what is stored for its URL
///   (RFC 9111 §4.4).
/// - The per-request policy is read from `URLRequest.cachePolicy` (see ``CachePolicy``).
public final class CachingTransport: HTTPTransport {
  /// Where answers are kept.
  public let cache: HTTPCache
  /// The transport that reaches the network.
  public let transport: any HTTPTransport

  private static let callerConditionals = [
    "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range",
  ]

  /// Creates a caching transport.
  ///
  /// - Parameters:
  ///   - transport: What reaches the network, such as `URLSessionTransport()`.
  ///   - cache: Where answers are kept.
  public init(wrapping transport: any HTTPTransport, cache: HTTPCache) {
    self.transport = transport
    self.cache = cache
  }

  /// Serves, revalidates or loads `request` as its cache policy and RFC 9111 direct.
  public func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    var outgoing = request
    // The platform must not cache a second time (Apple's URLSession would turn our own 304 into
    // a 200 from its URLCache and hide it from us).
    outgoing.urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
    let method = HTTPMethod(rawValue: request.urlRequest.httpMethod ?? "GET")
    guard method == .get || method == .head else {
      guard !method.isSafe else {
        return transport.startTransfer(outgoing, completion: completion)
      }
      return transport.startTransfer(outgoing) { [cache] result in
        if case .success(let response) = result {
          cache.invalidate(after: request.urlRequest, response: response)
        }
        completion(result)
      }
    }
    if Self.callerConditionals.contains(where: {
      request.urlRequest.value(forHTTPHeaderField: $0) != nil
    }) {
      return transport.startTransfer(outgoing, completion: completion)
    }
    let policy = CachePolicy(request.urlRequest.cachePolicy)
    let now = cache.now()
    let entry = policy == .reloadIgnoringCache ? nil : cache.entry(matching: request.urlRequest)
    // RFC 5861 §4: a stored answer that allows it stands in when the origin fails.
    let fallback = entry.flatMap { $0.mayStandInForFailure(of: request.urlRequest) ? $0 : nil }
    switch CacheDecision(request: request.urlRequest, entry: entry, policy: policy, now: now) {
    case .serve(let entry):
      let metrics = TransferMetrics(
        startDate: now, duration: 0, bytesReceived: 0, bytesSent: 0, cacheOutcome: .hit)
      return PendingTransfer.delivering(
        .success(entry.transportResponse(age: entry.currentAge(now: now), metrics: metrics)),
        to: completion)
    case .unavailable:
      let failure = TransportFailure(
        kind: .notCached,
        detail: "nothing usable is cached and the cache policy forbids loading")
      return PendingTransfer.delivering(.failure(failure), to: completion)
    case .validate(let entry):
      return load(outgoing, validating: entry, fallback: fallback, completion: completion)
    case .load:
      return load(outgoing, validating: nil, fallback: fallback, completion: completion)
    }
  }

  private func load(
    _ request: TransportRequest, validating entry: CacheEntry?, fallback: CacheEntry?,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    let relay = TransferRelay()
    let answer: @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    if let fallback {
      answer = { [cache] result in
        let now = cache.now()
        guard Self.isOriginFailure(result), fallback.isWithinStaleIfError(now: now) else {
          return completion(result)
        }
        let metrics = TransferMetrics(
          startDate: now, duration: 0, bytesReceived: 0, bytesSent: 0, cacheOutcome: .hit)
        completion(
          .success(fallback.transportResponse(age: fallback.currentAge(now: now), metrics: metrics))
        )
      }
    } else {
      answer = completion
    }
    send(request, validating: entry, attempt: 0, relay: relay, completion: answer)
    return relay
  }

  /// RFC 5861 §4: the failures `stale-if-error` covers: no answer at all (but a cancellation), or
  /// a 500, 502, 503 or 504.
  private static func isOriginFailure(_ result: Result<TransportResponse, TransportFailure>) -> Bool
  {
    switch result {
    case .failure(let failure): failure.kind != .cancelled
    case .success(let response): [500, 502, 503, 504].contains(response.statusCode)
    }
  }

  private func send(
    _ request: TransportRequest, validating entry: CacheEntry?, attempt: Int,
    relay: TransferRelay,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) {
    var sent = request
    for validator in entry?.validatingHeaders ?? [] {
      sent.urlRequest.setValue(validator.value, forHTTPHeaderField: validator.name)
    }
    let requestDate = cache.now()
    let handle = transport.startTransfer(sent) { [self] result in
      guard case .success(let response) = result else { return completion(result) }
      let responseDate = cache.now()
      guard response.statusCode == 304, let entry else {
        cache.storeIfAllowed(
          response, for: request.urlRequest, requestDate: requestDate, responseDate: responseDate)
        var loaded = response
        loaded.metrics.cacheOutcome = .miss
        return completion(.success(loaded))
      }
      guard entry.isDescribed(by: response.headers) else {
        // RFC 9111 §4.3.3: a 304 for a response we do not hold cannot answer the caller, who
        // asked unconditionally; ask again without validators.
        guard !relay.isCancelled else {
          return completion(.failure(TransportFailure(kind: .cancelled, detail: "cancelled")))
        }
        return send(
          request, validating: nil, attempt: attempt + 1, relay: relay, completion: completion)
      }
      let refreshed = entry.freshened(
        with: response.headers, requestDate: requestDate, responseDate: responseDate)
      cache.store(refreshed)
      var metrics = response.metrics
      metrics.cacheOutcome = .revalidated
      completion(
        .success(
          refreshed.transportResponse(
            age: refreshed.currentAge(now: responseDate), metrics: metrics)))
    }
    relay.attach(handle, attempt: attempt)
  }
}
