import Foundation

extension ServerConnection {
  /// Creates a connection whose `GET` and `HEAD` answers are cached in `cache`.
  ///
  /// The transport is wrapped in a ``CachingTransport`` (and, when asked, a
  /// ``CoalescingTransport`` beneath it, so only cache misses and revalidations are shared).
  ///
  /// - Parameters:
  ///   - configuration: Where requests go.
  ///   - transport: What moves the bytes; `URLSessionTransport` by default.
  ///   - cache: Where answers are kept; one cache per connection (and per account).
  ///   - coalescesIdenticalRequests: Whether identical `GET`s in flight at once share one
  ///     transfer. Off by default: callers that expect a fresh round trip each still get one.
  ///   - decoder: The JSON decoder for responses.
  ///   - adapters: Adapters applied to every request.
  ///   - decisions: The decision chain for every answer.
  public convenience init(
    configuration: ServerConfiguration,
    transport: (any HTTPTransport)? = nil,
    cache: HTTPCache,
    coalescesIdenticalRequests: Bool = false,
    decoder: JSONDecoder = JSONDecoder(),
    adapters: [any RequestAdapter] = [],
    decisions: [any ResponseDecision] = ServerConnection.standardDecisions
  ) {
    var network: any HTTPTransport = transport ?? URLSessionTransport()
    if coalescesIdenticalRequests { network = CoalescingTransport(wrapping: network) }
    self.init(
      configuration: configuration, transport: CachingTransport(wrapping: network, cache: cache),
      decoder: decoder, adapters: adapters, decisions: decisions)
  }

  /// The cache this connection's transport answers from, if it is a ``CachingTransport``.
  public var cache: HTTPCache? {
    (transport as? CachingTransport)?.cache
  }
}
