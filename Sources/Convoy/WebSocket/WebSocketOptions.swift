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
  /// How long `close` waits for the server's close frame before it drops the connection.
  public var closeTimeout: TimeInterval
  /// How often the client pings the server to keep the connection alive and to notice one that
  /// went dead silently (a NAT dropping it); `nil` sends no pings.
  public var pingInterval: TimeInterval?
  /// How long a ping may wait for its pong before the WebSocket fails with
  /// ``WebSocketError/Kind/closedAbnormally``.
  public var pongTimeout: TimeInterval

  /// Creates options; every part has a default.
  public init(
    compression: Bool = true, maximumMessageSize: Int = 16 << 20, bufferedMessages: Int = 64,
    closeTimeout: TimeInterval = 5, pingInterval: TimeInterval? = 20, pongTimeout: TimeInterval = 20
  ) {
    self.compression = compression
    self.maximumMessageSize = max(1, maximumMessageSize)
    self.bufferedMessages = max(1, bufferedMessages)
    self.closeTimeout = max(0, closeTimeout)
    self.pingInterval = pingInterval.map { max(0.001, $0) }
    self.pongTimeout = max(0.001, pongTimeout)
  }
}
