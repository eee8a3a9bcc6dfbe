import Foundation

/// One WebSocket frame as the protocol sees it (RFC 6455 §5.2), unmasked.
///
/// Masking is a property of the bytes on the wire, not of the frame: the encoder masks every
/// frame a client sends with a key of its own, and the decoder refuses masked frames from a server,
/// so a frame value never carries a key.
package struct WebSocketFrame: Sendable, Hashable {
  /// Whether this is the last frame of its message; control frames always have it set.
  package var fin: Bool
  /// The first reserved bit, which permessage-deflate (RFC 7692 §6) uses to mark a compressed
  /// message on its first frame.
  package var rsv1: Bool
  /// The second reserved bit; no extension Convoy negotiates uses it.
  package var rsv2: Bool
  /// The third reserved bit; no extension Convoy negotiates uses it.
  package var rsv3: Bool
  /// What the frame carries.
  package var opcode: WebSocketOpcode
  /// The application data, unmasked.
  package var payload: Data

  /// Creates a frame; by default the only frame of its message, with no reserved bit set.
  package init(
    fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false,
    opcode: WebSocketOpcode, payload: Data = Data()
  ) {
    self.fin = fin
    self.rsv1 = rsv1
    self.rsv2 = rsv2
    self.rsv3 = rsv3
    self.opcode = opcode
    self.payload = payload
  }

  /// The largest payload of a control frame (§5.5).
  package static let maximumControlPayload = 125

  /// A close frame carrying `code` and as much of `reason` as fits.
  ///
  /// A control frame carries at most 125 bytes, two of them the code, so a longer reason is cut
  /// at the last whole Unicode scalar that fits rather than failing the close: the peer validates
  /// the reason as UTF-8 (§5.5.1) and would fail the connection over half a character. Without a
  /// code the frame is empty, since §5.5.1 allows a reason only after a code.
  package static func close(code: WebSocketCloseCode?, reason: String = "") -> WebSocketFrame {
    guard let code else { return WebSocketFrame(opcode: .close) }
    var payload = Data([UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)])
    var room = maximumControlPayload - payload.count
    for scalar in reason.unicodeScalars {
      let bytes = Array(String(scalar).utf8)
      guard bytes.count <= room else { break }
      payload.append(contentsOf: bytes)
      room -= bytes.count
    }
    return WebSocketFrame(opcode: .close, payload: payload)
  }
}
