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
  public var domainLookupEnd: TimeInterval? {
    get { details.domainLookupEnd }
    set { details.domainLookupEnd = newValue }
  }
  /// Seconds from the start until the TCP connection was established.
  public var connectEnd: TimeInterval? {
    get { details.connectEnd }
    set { details.connectEnd = newValue }
  }
  /// Seconds from the start until the TLS handshake was done; `nil` without TLS.
  public var secureConnectionEnd: TimeInterval? {
    get { details.secureConnectionEnd }
    set { details.secureConnectionEnd = newValue }
  }
  /// Seconds from the start until the request was ready to go out and began to be sent.
  public var requestEnd: TimeInterval? {
    get { details.requestEnd }
    set { details.requestEnd = newValue }
  }
  /// Seconds from the start until the first byte of the answer arrived.
  public var responseStart: TimeInterval? {
    get { details.responseStart }
    set { details.responseStart = newValue }
  }

  /// Bytes of the request's head (request line and header fields) as sent.
  public var requestHeaderBytes: Int? {
    get { details.requestHeaderBytes }
    set { details.requestHeaderBytes = newValue }
  }
  /// Bytes of the answer's head (status line and header fields) as received, interim answers
  /// included.
  public var responseHeaderBytes: Int? {
    get { details.responseHeaderBytes }
    set { details.responseHeaderBytes = newValue }
  }

  /// The protocol the exchange used: `"HTTP/1.1"`, `"HTTP/2"`, `"HTTP/3"`.
  public var protocolVersion: String? {
    get { details.protocolVersion }
    set { details.protocolVersion = newValue }
  }
  /// Whether the transfer went over a connection an earlier transfer had opened.
  public var isReusedConnection: Bool? {
    get { details.isReusedConnection }
    set { details.isReusedConnection = newValue }
  }
  /// The local end of the connection: an IP address.
  public var localAddress: String? {
    get { details.localAddress }
    set { details.localAddress = newValue }
  }
  /// The local port of the connection.
  public var localPort: Int? {
    get { details.localPort }
    set { details.localPort = newValue }
  }
  /// The server's end of the connection (or the proxy's): an IP address.
  public var remoteAddress: String? {
    get { details.remoteAddress }
    set { details.remoteAddress = newValue }
  }
  /// The server's (or the proxy's) port.
  public var remotePort: Int? {
    get { details.remotePort }
    set { details.remotePort = newValue }
  }

  /// How the HTTP cache took part; `nil` when no ``CachingTransport`` is in the way.
  public var cacheOutcome: CacheOutcome?
  /// Whether this answer was shared from another identical request's transfer
  /// (``CoalescingTransport``) instead of a transfer of its own.
  public var isCoalesced: Bool

  // What only some transports know lives out of line, in a box shared by copies until one of
  // them changes it: an answer's metrics are copied many times on the way up the pipeline, and
  // thirteen optionals inline would make every copy of every answer longer. Metrics without
  // details (a stub's) allocate nothing.
  private var box: DetailsBox?

  private var details: Details {
    get { box?.details ?? Details() }
    // In place, so that setting a field copies nothing when this copy holds the box alone: the
    // curl transport sets thirteen of them on every transfer.
    _modify {
      if box == nil || !isKnownUniquelyReferenced(&box!) {
        box = DetailsBox(box?.details ?? Details())
      }
      yield &box!.details
    }
  }

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
    self.cacheOutcome = cacheOutcome
    self.isCoalesced = isCoalesced
    let details = Details(
      domainLookupEnd: domainLookupEnd,
      connectEnd: connectEnd,
      secureConnectionEnd: secureConnectionEnd,
      requestEnd: requestEnd,
      responseStart: responseStart,
      requestHeaderBytes: requestHeaderBytes,
      responseHeaderBytes: responseHeaderBytes,
      protocolVersion: protocolVersion,
      isReusedConnection: isReusedConnection,
      localAddress: localAddress,
      localPort: localPort,
      remoteAddress: remoteAddress,
      remotePort: remotePort)
    if details != Details() { box = DetailsBox(details) }
  }

  /// Seconds the answer's body took to arrive after its first byte; `nil` when the transport
  /// does not know when the first byte came.
  public var bodyDuration: TimeInterval? {
    responseStart.map { max(0, duration - $0) }
  }
}

extension TransferMetrics {
  /// Equal when every field is, details included.
  public static func == (lhs: TransferMetrics, rhs: TransferMetrics) -> Bool {
    lhs.startDate == rhs.startDate && lhs.duration == rhs.duration
      && lhs.bytesReceived == rhs.bytesReceived && lhs.bytesSent == rhs.bytesSent
      && lhs.cacheOutcome == rhs.cacheOutcome && lhs.isCoalesced == rhs.isCoalesced
      && lhs.details == rhs.details
  }

  /// Hashes every field, details included.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(startDate)
    hasher.combine(duration)
    hasher.combine(bytesReceived)
    hasher.combine(bytesSent)
    hasher.combine(cacheOutcome)
    hasher.combine(isCoalesced)
    hasher.combine(details)
  }

  /// The fields only some transports know; see ``TransferMetrics``.
  fileprivate struct Details: Hashable {
    var domainLookupEnd: TimeInterval? = nil
    var connectEnd: TimeInterval? = nil
    var secureConnectionEnd: TimeInterval? = nil
    var requestEnd: TimeInterval? = nil
    var responseStart: TimeInterval? = nil
    var requestHeaderBytes: Int? = nil
    var responseHeaderBytes: Int? = nil
    var protocolVersion: String? = nil
    var isReusedConnection: Bool? = nil
    var localAddress: String? = nil
    var localPort: Int? = nil
    var remoteAddress: String? = nil
    var remotePort: Int? = nil
  }

  /// Holds the details of one or more copies of the same metrics; changed only while a single
  /// copy holds it (copy on write), so sharing it across threads is safe.
  fileprivate final class DetailsBox: @unchecked Sendable {
    var details: Details

    init(_ details: Details) {
      self.details = details
    }
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
