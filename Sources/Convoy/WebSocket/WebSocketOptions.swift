import Foundation

/// How a WebSocket behaves: compression, limits and timeouts.
public struct WebSocketOptions: Sendable, Hashable {
  /// Whether permessage-deflate (RFC 7692) is offered; used when the server agrees and the
  /// system zlib loads.
  public var compression: Bool
  /// The largest message accepted, once reassembled and inflated; a larger one closes the
  /// WebSocket with 1009.
  public var maximumMessageSize: Int
  /// How many received messages may wait for their reader before the WebSocket stops reading
  /// from the network.
  public var bufferedMessages: Int
  /// How many bytes of sent messages may wait to be written before ``WebSocket/send(_:)``
  /// waits for room: a server that reads slowly slows the sender down instead of memory
  /// growing. A single larger message is still queued, once the queue has room.
  public var maximumQueuedBytes: Int
  /// How long the connection and the upgrade (TLS, proxy and the server's `101` included) may
  /// take; `nil` takes the connection's ``ServerConfiguration/timeout``.
  public var handshakeTimeout: TimeInterval?
  /// How long the server may send nothing at all (no message, no pong) before the WebSocket
  /// fails with ``WebSocketError/Kind/timedOut``, closing with 1001; `nil` waits for ever.
  /// With keep-alive pings on, a live server answers within `pingInterval`.
  public var idleTimeout: TimeInterval?
  /// How long `close` waits for the server's close frame before it drops the connection.
  public var closeTimeout: TimeInterval
  /// How often the client pings the server to keep the connection alive and to notice one that
  /// went dead silently (a NAT dropping it); `nil` sends no pings.
  public var pingInterval: TimeInterval?
  /// How long a ping may wait for its pong before the WebSocket fails with
  /// ``WebSocketError/Kind/timedOut``, closing with 1001.
  public var pongTimeout: TimeInterval

  /// Creates options; every part has a default.
  public init(
    compression: Bool = true, maximumMessageSize: Int = 16 << 20, bufferedMessages: Int = 64,
    maximumQueuedBytes: Int = 1 << 20, handshakeTimeout: TimeInterval? = nil,
    idleTimeout: TimeInterval? = nil, closeTimeout: TimeInterval = 5,
    pingInterval: TimeInterval? = 20, pongTimeout: TimeInterval = 20
  ) {
    self.compression = compression
    self.maximumMessageSize = max(1, maximumMessageSize)
    self.bufferedMessages = max(1, bufferedMessages)
    self.maximumQueuedBytes = max(1, maximumQueuedBytes)
    self.handshakeTimeout = handshakeTimeout.map { max(0.001, $0) }
    self.idleTimeout = idleTimeout.map { max(0.001, $0) }
    self.closeTimeout = max(0, closeTimeout)
    self.pingInterval = pingInterval.map { max(0.001, $0) }
    self.pongTimeout = max(0.001, pongTimeout)
  }
}
