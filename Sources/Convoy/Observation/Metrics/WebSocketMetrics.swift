import Foundation

/// What went through a WebSocket: messages and bytes each way, before and after compression.
public struct WebSocketMetrics: Sendable, Hashable {
  /// Messages the app sent.
  public var messagesSent = 0
  /// Messages the app received (queued for it, read or not).
  public var messagesReceived = 0
  /// Bytes of the messages sent, as the app gave them (uncompressed).
  public var bytesSent = 0
  /// Bytes of the messages received, as the app reads them (inflated).
  public var bytesReceived = 0
  /// Bytes written to the connection after the upgrade: frames with their headers and masks,
  /// compressed, control frames included.
  public var wireBytesSent = 0
  /// Bytes read from the connection after the upgrade.
  public var wireBytesReceived = 0

  /// Creates empty metrics.
  public init() {}

  /// How much smaller compression made what was sent: message bytes over wire bytes (above 1
  /// when compression saved), `nil` before anything was sent.
  public var sentCompressionRatio: Double? {
    wireBytesSent == 0 ? nil : Double(bytesSent) / Double(wireBytesSent)
  }

  /// How much smaller compression made what was received, as ``sentCompressionRatio``.
  public var receivedCompressionRatio: Double? {
    wireBytesReceived == 0 ? nil : Double(bytesReceived) / Double(wireBytesReceived)
  }
}
