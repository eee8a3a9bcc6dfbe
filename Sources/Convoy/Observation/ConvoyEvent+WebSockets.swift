import Foundation

extension ConvoyEvent {
  /// A WebSocket's upgrade succeeded (`websocket.opened`).
  public struct WebSocketOpened: Sendable, Hashable {
    /// The WebSocket, named as a call (its upgrade request is one).
    public let call: CallIdentity
    /// The WebSocket's URL, redacted.
    public let url: String?
    /// The subprotocol the server chose, if any.
    public let subprotocol: String?
    /// Whether messages are compressed (permessage-deflate).
    public let isCompressed: Bool
    /// Seconds from the start of the connection to the `101`.
    public let duration: TimeInterval

    /// Describes an opened WebSocket; redacts the URL.
    public init(
      call: CallIdentity, url: URL?, subprotocol: String?, isCompressed: Bool,
      duration: TimeInterval
    ) {
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.subprotocol = subprotocol
      self.isCompressed = isCompressed
      self.duration = duration
    }
  }

  /// A message or a ping or pong went out or came in on a WebSocket (`websocket.message`): its
  /// sizes, never its contents.
  public struct WebSocketMessageMoved: Sendable, Hashable {
    /// Which way a message went.
    public enum Direction: String, Sendable, Hashable {
      /// From the app to the server.
      case sent
      /// From the server to the app.
      case received
    }

    /// What kind of frame it was.
    public enum Kind: String, Sendable, Hashable {
      /// A text message.
      case text
      /// A binary message.
      case binary
      /// A ping (the client's keep-alive, or the server's).
      case ping
      /// A pong.
      case pong
    }

    /// The WebSocket.
    public let call: CallIdentity
    /// Which way it went.
    public let direction: Direction
    /// What it was.
    public let kind: Kind
    /// The message's size: what the app sent or reads, uncompressed.
    public let size: Int

    /// Describes one message.
    public init(call: CallIdentity, direction: Direction, kind: Kind, size: Int) {
      self.call = call
      self.direction = direction
      self.kind = kind
      self.size = size
    }
  }

  /// A WebSocket ended (`websocket.closed`): closed by either side, failed, or never opened
  /// (its upgrade failed). Every WebSocket ends with one.
  public struct WebSocketClosed: Sendable, Hashable {
    /// The WebSocket.
    public let call: CallIdentity
    /// The WebSocket's URL, redacted.
    public let url: String?
    /// The code of the close frame the client sent, if it sent one (1005 for one without a
    /// code). A number rather than a `WebSocketCloseCode`: events sit below the transports.
    public let clientCode: UInt16?
    /// The code of the close frame the server sent, if it sent one (1005 for one without a
    /// code).
    public let serverCode: UInt16?
    /// The server's close reason, redacted; empty when none.
    public let reason: String
    /// How the failure is sorted for people, when the WebSocket failed.
    public let errorCategory: ErrorCategory?
    /// Seconds from the start of the connection to the end.
    public let duration: TimeInterval
    /// What went through it.
    public let metrics: WebSocketMetrics

    /// Describes the end of a WebSocket; redacts the URL and the reason.
    public init(
      call: CallIdentity, url: URL?, clientCode: UInt16?, serverCode: UInt16?, reason: String,
      errorCategory: ErrorCategory?,
      duration: TimeInterval, metrics: WebSocketMetrics
    ) {
      self.call = call
      self.url = url.map(SecretRedactor.redact)
      self.clientCode = clientCode
      self.serverCode = serverCode
      self.reason = SecretRedactor.redact(reason)
      self.errorCategory = errorCategory
      self.duration = duration
      self.metrics = metrics
    }
  }
}
