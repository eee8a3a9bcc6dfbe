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

  /// Serves, revalidates or loads `request` as its cache policy and RFC 9111 direct. A stream
  /// bypasses the cache: it may never end and is read once, so there is nothing whole to store
  /// or to answer from.
  public nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    var outgoing = request
    // The platform must not cache a second time (Apple's URLSession would turn our own 304 into
    // a 200 from its URLCache and hide it from us).
    outgoing.urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
    let method = HTTPMethod(rawValue: request.urlRequest.httpMethod ?? "GET")
    guard request.answerDelivery == .whole, method == .get || method == .head else {
      let answer = try await transport.send(outgoing)
      if !method.isSafe { cache.invalidate(after: request.urlRequest, response: answer.head) }
      return answer
    }
    if Self.callerConditionals.contains(where: {
      request.urlRequest.value(forHTTPHeaderField: $0) != nil
    }) {
      return try await transport.send(outgoing)
    }
    let policy = CachePolicy(request.urlRequest.cachePolicy)
    let now = cache.now()
    let entry = policy == .reloadIgnoringCache ? nil : cache.entry(matching: request.urlRequest)
    // RFC 5861 §4: a stored answer that allows it stands in when the origin fails.
    let fallback = entry.flatMap { $0.mayStandInForFailure(of: request.urlRequest) ? $0 : nil }
    let result: Result<TransportResponse, TransportFailure>
    switch CacheDecision(request: request.urlRequest, entry: entry, policy: policy, now: now) {
    case .serve(let entry):
      return TransportAnswer(stored(entry, now: now))
    case .unavailable:
      throw TransportFailure(
        kind: .notCached, detail: "nothing usable is cached and the cache policy forbids loading")
    case .validate(let entry):
      result = await load(outgoing, validating: entry)
    case .load:
      result = await load(outgoing, validating: nil)
    }
    let failedAt = cache.now()
    if let fallback, Self.isOriginFailure(result), fallback.isWithinStaleIfError(now: failedAt) {
      return TransportAnswer(stored(fallback, now: failedAt))
    }
    return try TransportAnswer(result.get())
  }

  /// `entry` as an answer served at `now`, without the network.
  private func stored(_ entry: CacheEntry, now: Date) -> TransportResponse {
    let metrics = TransferMetrics(
      startDate: now, duration: 0, bytesReceived: 0, bytesSent: 0, cacheOutcome: .hit)
    return entry.transportResponse(age: entry.currentAge(now: now), metrics: metrics)
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

  /// Loads `request` from the network, revalidating `entry` when given, and stores what may be
  /// stored.
  nonisolated(nonsending) private func load(
    _ request: TransportRequest, validating entry: CacheEntry?
  ) async -> Result<TransportResponse, TransportFailure> {
    var sent = request
    for validator in entry?.validatingHeaders ?? [] {
      sent.urlRequest.setValue(validator.value, forHTTPHeaderField: validator.name)
    }
    let requestDate = cache.now()
    let response: TransportResponse
    do {
      response = try await transport.send(sent).collected(within: request.responseLimits)
    } catch {
      return .failure(error)
    }
    let responseDate = cache.now()
    guard response.statusCode == 304, let entry else {
      cache.storeIfAllowed(
        response, for: request.urlRequest, requestDate: requestDate, responseDate: responseDate)
      var loaded = response
      loaded.metrics.cacheOutcome = .miss
      return .success(loaded)
    }
    guard entry.isDescribed(by: response.headers) else {
      // RFC 9111 §4.3.3: a 304 for a response we do not hold cannot answer the caller, who
      // asked unconditionally; ask again without validators.
      guard !request.cancellation.isCancelled, !Task.isCancelled else {
        return .failure(TransportFailure(kind: .cancelled, detail: "cancelled"))
      }
      return await load(request, validating: nil)
    }
    let refreshed = entry.freshened(
      with: response.headers, requestDate: requestDate, responseDate: responseDate)
    cache.store(refreshed)
    var metrics = response.metrics
    metrics.cacheOutcome = .revalidated
    return .success(
      refreshed.transportResponse(age: refreshed.currentAge(now: responseDate), metrics: metrics))
  }
}
