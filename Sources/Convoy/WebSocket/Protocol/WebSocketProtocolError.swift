/// How the server broke RFC 6455 (or RFC 7692), and the close code the client answers with.
///
/// §7.1.7 says a violation fails the connection: the client sends a close frame with a code that
/// names the kind of fault (1002 for the framing, 1007 for data that does not match its type, 1009
/// for something too big) and stops reading. Each case keeps the facts of the fault, so a log or
/// an error message can say exactly what arrived, and ``closeCode`` picks the code in one place.
package enum WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A frame from the server had its mask bit set, which §5.1 forbids.
  case maskedFrame
  /// A reserved bit (1, 2 or 3) was set that no negotiated extension defines (§5.2).
  case reservedBitSet(Int)
  /// The opcode is one of the reserved ones (§5.2).
  case unknownOpcode(UInt8)
  /// A control frame came without its fin bit: control frames are never fragmented (§5.5).
  case fragmentedControlFrame(WebSocketOpcode)
  /// A control frame announced more than 125 bytes of payload (§5.5).
  case controlFrameTooLong(WebSocketOpcode)
  /// A 64-bit payload length had its most significant bit set (§5.2).
  case lengthOutOfRange
  /// A frame announced more payload than the client accepts in one frame.
  case frameTooBig(length: UInt64, limit: Int)
  /// A continuation frame came with no text or binary message under way (§5.4).
  case continuationWithoutMessage
  /// A new text or binary frame came while the previous message still awaited fragments (§5.4).
  case messageInterrupted(by: WebSocketOpcode)
  /// A message grew past the client's limit, counted over its fragments or once inflated.
  case messageTooBig(limit: Int)
  /// A text message was not valid UTF-8 (§5.6, §8.1).
  case invalidUTF8
  /// A close frame carried one byte: a code needs two (§5.5.1).
  case closePayloadTooShort
  /// A close frame carried a code that may not be sent (§7.4): reserved, or local only.
  case closeCodeNotAllowed(UInt16)
  /// A close frame's reason was not valid UTF-8 (§5.5.1).
  case invalidCloseReason
  /// A control frame had RSV1 set: compression applies to messages only (RFC 7692 §6.1).
  case compressedControlFrame(WebSocketOpcode)
  /// A continuation frame had RSV1 set: only a message's first frame may (RFC 7692 §6.1).
  case compressedContinuation
  /// A message was marked compressed (RSV1) although no compression was negotiated (§5.2).
  case compressionNotNegotiated
  /// A compressed message could not be inflated.
  case inflationFailed

  /// The code the client's close frame carries when it fails the connection for this fault.
  package var closeCode: WebSocketCloseCode {
    switch self {
    case .frameTooBig, .messageTooBig: .messageTooBig
    case .invalidUTF8, .invalidCloseReason, .inflationFailed: .invalidPayload
    default: .protocolError
    }
  }

  /// A sentence for logs and for the message the error layer words.
  package var description: String {
    switch self {
    case .maskedFrame:
      "the server sent a masked frame"
    case .reservedBitSet(let bit):
      "the server set reserved bit RSV\(bit), which no negotiated extension uses"
    case .unknownOpcode(let opcode):
      "the server sent a frame with the reserved opcode \(opcode)"
    case .fragmentedControlFrame(let opcode):
      "the server sent a fragmented \(opcode) frame"
    case .controlFrameTooLong(let opcode):
      "the server sent a \(opcode) frame longer than the 125 bytes a control frame may carry"
    case .lengthOutOfRange:
      "the server sent a frame length with its most significant bit set"
    case .frameTooBig(let length, let limit):
      "the server sent a frame of \(length) bytes, more than the limit of \(limit)"
    case .continuationWithoutMessage:
      "the server sent a continuation frame with no message to continue"
    case .messageInterrupted(let opcode):
      "the server started a new \(opcode) message before finishing the previous one"
    case .messageTooBig(let limit):
      "the server sent a message larger than the limit of \(limit) bytes"
    case .invalidUTF8:
      "the server sent a text message that is not valid UTF-8"
    case .closePayloadTooShort:
      "the server sent a close frame of one byte, too short for a close code"
    case .closeCodeNotAllowed(let code):
      "the server sent the close code \(code), which may not be sent"
    case .invalidCloseReason:
      "the server sent a close reason that is not valid UTF-8"
    case .compressedControlFrame(let opcode):
      "the server marked a \(opcode) frame as compressed"
    case .compressedContinuation:
      "the server marked a continuation frame as compressed"
    case .compressionNotNegotiated:
      "the server sent a compressed message although no compression was agreed"
    case .inflationFailed:
      "the server sent a compressed message that could not be inflated"
    }
  }
}
