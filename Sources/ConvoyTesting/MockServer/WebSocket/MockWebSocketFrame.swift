import Foundation

/// One WebSocket frame as a ``MockServer`` sends or received it, every bit as it is on the wire,
/// so a test can script frames no correct server sends: a reserved bit, an unknown opcode, a
/// fragmented ping, a masked frame from the server.
public struct MockWebSocketFrame: Sendable, Hashable {
  /// Whether this is the last frame of its message.
  public var isFinal: Bool
  /// The three reserved bits, RSV1 (`0b100`, permessage-deflate's) to RSV3 (`0b001`).
  public var reservedBits: UInt8
  /// The opcode, 0 to 15: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong.
  public var opcode: UInt8
  /// The payload, unmasked.
  public var payload: Data
  /// Whether the frame is (or was) masked: the client's must be, a server's must not.
  public var isMasked: Bool

  /// Creates a frame; a server's frame by default: final, no reserved bit, unmasked.
  public init(
    opcode: UInt8, payload: Data = Data(), isFinal: Bool = true, reservedBits: UInt8 = 0,
    isMasked: Bool = false
  ) {
    self.opcode = opcode & 0x0F
    self.payload = payload
    self.isFinal = isFinal
    self.reservedBits = reservedBits & 0b111
    self.isMasked = isMasked
  }

  /// A text frame of `text`'s UTF-8 bytes.
  public static func text(_ text: String, isFinal: Bool = true) -> MockWebSocketFrame {
    MockWebSocketFrame(opcode: 0x1, payload: Data(text.utf8), isFinal: isFinal)
  }

  /// A close frame with `code` (none when `nil`) and `reason`.
  public static func close(_ code: UInt16?, reason: String = "") -> MockWebSocketFrame {
    var payload = Data()
    if let code { payload = Data([UInt8(code >> 8), UInt8(code & 0xFF)]) + Data(reason.utf8) }
    return MockWebSocketFrame(opcode: 0x8, payload: payload)
  }

  /// The frame's bytes on the wire, with the shortest length form and, when masked, an all-zero
  /// key (which leaves the payload as it is: the mask's value is not what a test checks).
  public var bytes: Data {
    var bytes = Data([(isFinal ? 0x80 : 0) | reservedBits << 4 | opcode])
    let maskBit: UInt8 = isMasked ? 0x80 : 0
    switch payload.count {
    case ..<126:
      bytes.append(maskBit | UInt8(payload.count))
    case ...0xFFFF:
      bytes.append(maskBit | 126)
      bytes.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
    default:
      bytes.append(maskBit | 127)
      bytes.append(contentsOf: (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) })
    }
    if isMasked { bytes.append(contentsOf: [0, 0, 0, 0]) }
    bytes.append(payload)
    return bytes
  }

  /// The close code of a close frame with one.
  var closeCode: UInt16? {
    guard opcode == 0x8, payload.count >= 2 else { return nil }
    return UInt16(payload[payload.startIndex]) << 8 | UInt16(payload[payload.startIndex + 1])
  }
}
