/// What a WebSocket frame carries (RFC 6455 §5.2, §11.8).
///
/// Only the six opcodes RFC 6455 defines exist here: the others are reserved for extensions that
/// Convoy does not negotiate, so a frame that uses one fails the connection with 1002 before it
/// becomes a value.
package enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
  /// A further fragment of the text or binary message the last data frame started (§5.4).
  case continuation = 0x0
  /// The first (or only) frame of a message of UTF-8 text.
  case text = 0x1
  /// The first (or only) frame of a binary message.
  case binary = 0x2
  /// The close handshake (§5.5.1).
  case close = 0x8
  /// A ping, which the other side answers with a pong of the same payload (§5.5.2).
  case ping = 0x9
  /// A pong: an answer to a ping, or an unasked heartbeat (§5.5.3).
  case pong = 0xA

  /// Whether this is a control frame: control opcodes have the high bit of the nibble set
  /// (§5.5), and such frames may not be fragmented and carry at most 125 bytes.
  package var isControl: Bool { rawValue & 0x8 != 0 }
}
