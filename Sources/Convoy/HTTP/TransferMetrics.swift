import Foundation

/// Timing, size and connection of one transfer: one request sent and its answer received.
///
/// The phases are seconds from ``startDate``, the moment the transport began the transfer, each
/// one the end of a phase: ``domainLookupEnd``, ``connectEnd``, ``secureConnectionEnd``,
/// ``requestEnd``, ``responseStart``, then ``duration`` when the whole answer was in. A phase the
/// transport cannot see is `nil`, and so is a phase that did not happen: a reused connection has
/// no lookup, connect or TLS phase, and a plain `http` connection no TLS phase.
///
/// What each transport knows:
///
/// | field | ``CurlTransport`` | `URLSession` on Apple platforms | `URLSession` on Linux |
/// |---|---|---|---|
/// | `duration`, `bytesSent`, `bytesReceived` | ✓ | ✓ | ✓ (measured by Convoy) |
/// | phases | ✓ | ✓ (`URLSessionTaskMetrics`) | `nil` |
/// | header bytes | ✓ | ✓ | `nil` |
/// | `protocolVersion` | ✓ | ✓ | `nil` |
/// | `isReusedConnection` | ✓ | ✓ | `nil` |
/// | addresses and ports | ✓ | ✓ (not on watchOS) | `nil` |
///
/// FoundationNetworking never delivers task metrics on Linux, so only the curl transport can
/// report phases there.
public struct TransferMetrics: Sendable, Hashable {
  /// When the transfer started.
  public var startDate: Date
  /// How long it took until the whole answer had arrived.
  public var duration: TimeInterval
  /// Body bytes received, after decoding any content coding.
  public var bytesReceived: Int
  /// Body bytes sent.
  public var bytesSent: Int

  /// Seconds from the start until the host name was resolved.
  public var domainLookupEnd: TimeInterval?
  /// Seconds from the start until the TCP connection was established.
  public var connectEnd: TimeInterval?
  /// Seconds from the start until the TLS handshake was done; `nil` without TLS.
  public var secureConnectionEnd: TimeInterval?
  /// Seconds from the start until the request was ready to go out and began to be sent.
  public var requestEnd: TimeInterval?
  /// Seconds from the start until the first byte of the answer arrived.
  public var responseStart: TimeInterval?

  /// Bytes of the request's head (request line and header fields) as sent.
  public var requestHeaderBytes: Int?
  /// Bytes of the answer's head (status line and header fields) as received, interim answers
  /// included.
  public var responseHeaderBytes: Int?

  /// The protocol the exchange used: `"HTTP/1.1"`, `"HTTP/2"`, `"HTTP/3"`.
  public var protocolVersion: String?
  /// Whether the transfer went over a connection an earlier transfer had opened.
  public var isReusedConnection: Bool?
  /// The local end of the connection: an IP address.
  public var localAddress: String?
  /// The local port of the connection.
  public var localPort: Int?
  /// The server's end of the connection (or the proxy's): an IP address.
  public var remoteAddress: String?
  /// The server's (or the proxy's) port.
  public var remotePort: Int?

  /// How the HTTP cache took part; `nil` when no ``CachingTransport`` is in the way.
  public var cacheOutcome: CacheOutcome?
  /// Whether this answer was shared from another identical request's transfer
  /// (``CoalescingTransport``) instead of a transfer of its own.
  public var isCoalesced: Bool

  /// Creates metrics; every field not given is unknown (`nil`).
  public init(
    startDate: Date, duration: TimeInterval, bytesReceived: Int, bytesSent: Int,
    domainLookupEnd: TimeInterval? = nil, connectEnd: TimeInterval? = nil,
    secureConnectionEnd: TimeInterval? = nil, requestEnd: TimeInterval? = nil,
    responseStart: TimeInterval? = nil, requestHeaderBytes: Int? = nil,
    responseHeaderBytes: Int? = nil, protocolVersion: String? = nil,
    isReusedConnection: Bool? = nil, localAddress: String? = nil, localPort: Int? = nil,
    remoteAddress: String? = nil, remotePort: Int? = nil, cacheOutcome: CacheOutcome? = nil,
    isCoalesced: Bool = false
  ) {
    self.startDate = startDate
    self.duration = duration
    self.bytesReceived = bytesReceived
    self.bytesSent = bytesSent
    self.domainLookupEnd = domainLookupEnd
    self.connectEnd = connectEnd
    self.secureConnectionEnd = secureConnectionEnd
    self.requestEnd = requestEnd
    self.responseStart = responseStart
    self.requestHeaderBytes = requestHeaderBytes
    self.responseHeaderBytes = responseHeaderBytes
    self.protocolVersion = protocolVersion
    self.isReusedConnection = isReusedConnection
    self.localAddress = localAddress
    self.localPort = localPort
    self.remoteAddress = remoteAddress
    self.remotePort = remotePort
    self.cacheOutcome = cacheOutcome
    self.isCoalesced = isCoalesced
  }

  /// Seconds the answer's body took to arrive after its first byte; `nil` when the transport
  /// does not know when the first byte came.
  public var bodyDuration: TimeInterval? {
    responseStart.map { max(0, duration - $0) }
  }
}

/// How the HTTP cache took part in an answer.
public enum CacheOutcome: String, Sendable, Hashable, CaseIterable {
  /// Answered from the cache without asking the server.
  case hit
  /// Asked the server, which confirmed the stored answer (`304 Not Modified`).
  case revalidated
  /// Answered by the server with a new body; stored when the answer allows it.
  case miss
}
