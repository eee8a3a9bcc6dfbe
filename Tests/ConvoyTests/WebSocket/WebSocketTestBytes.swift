import Foundation

@testable import Convoy

/// Frames as a server writes them, built byte by byte here rather than with Convoy's encoder, so
/// that the decoder's tests do not take the encoder's word for the format.
enum ServerFrameBytes {
  /// An unmasked frame; `lengthBytes` forces a length form (0, 2 or 8 extra bytes).
  static func frame(
    _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0, lengthBytes: Int? = nil
  ) -> [UInt8] {
    let extra = lengthBytes ?? (payload.count <= 125 ? 0 : payload.count <= 0xFFFF ? 2 : 8)
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
    switch extra {
    case 0: bytes.append(UInt8(payload.count))
    case 2: bytes.append(126)
    default: bytes.append(127)
    }
    for index in stride(from: extra - 1, through: 0, by: -1) {
      bytes.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(8 * index)))
    }
    return bytes + payload
  }

  static func text(_ text: String, fin: Bool = true) -> [UInt8] {
    frame(0x1, Array(text.utf8), fin: fin)
  }
}

/// A generator that hands out the numbers it was given, in turn, round and round.
struct ScriptedRandom: RandomNumberGenerator, Sendable {
  var numbers: [UInt64]
  private var index = 0

  init(_ numbers: [UInt64]) { self.numbers = numbers }

  mutating func next() -> UInt64 {
    defer { index = (index + 1) % numbers.count }
    return numbers[index]
  }
}

extension WebSocketFrameDecoder {
  /// Every frame the bytes so far hold.
  mutating func frames() throws(WebSocketProtocolError) -> [WebSocketFrame] {
    var frames: [WebSocketFrame] = []
    while let frame = try nextFrame() { frames.append(frame) }
    return frames
  }
}

/// The error `body` throws, or `nil`.
func protocolError(_ body: () throws(WebSocketProtocolError) -> Void) -> WebSocketProtocolError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
