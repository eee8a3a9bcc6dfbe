import Foundation

/// Writes the frames a client sends (RFC 6455 §5.2, §5.3).
///
/// Every client frame is masked with a fresh key (§5.3): the key must be unpredictable, so that
/// a script cannot choose the bytes an intermediary sees and poison its cache (§10.3). The keys
/// come from an injectable generator, the system's by default, so tests can fix them.
///
/// A frame is written into one buffer allocated at its final size, the payload masked eight
/// bytes at a time: the encoder runs once per message sent, on messages that may be megabytes.
/// It does not check the frame: the caller sends only frames it built itself (a control frame's
/// payload within 125 bytes, as ``WebSocketFrame/close(code:reason:)`` ensures for close).
package struct WebSocketFrameEncoder: Sendable {
  private var random: any RandomNumberGenerator & Sendable

  /// Creates an encoder whose masking keys come from the system's secure generator, fetched in
  /// batches (``BatchedSystemRandom``).
  package init() {
    self.init(random: BatchedSystemRandom())
  }

  /// Creates an encoder whose masking keys come from `random`: the low 32 bits of each of its
  /// numbers, most significant byte first.
  package init(random: some RandomNumberGenerator & Sendable) {
    self.random = random
  }

  /// The bytes of `frame`, masked with the next key.
  package mutating func encode(_ frame: WebSocketFrame) -> Data {
    Self.encode(frame, maskingKey: UInt32(truncatingIfNeeded: random.next()))
  }

  /// The bytes of `frame`, masked with `maskingKey`, whose most significant byte is the first on
  /// the wire.
  package static func encode(_ frame: WebSocketFrame, maskingKey: UInt32) -> Data {
    let payloadLength = frame.payload.count
    // §5.2: the shortest length form is required; a client header adds the 4-byte key.
    let lengthBytes = payloadLength <= 125 ? 0 : payloadLength <= 0xFFFF ? 2 : 8
    let headerLength = 2 + lengthBytes + 4
    var bytes = Data(count: headerLength + payloadLength)
    bytes.withUnsafeMutableBytes { output in
      var first = frame.opcode.rawValue
      if frame.fin { first |= 0x80 }
      if frame.rsv1 { first |= 0x40 }
      if frame.rsv2 { first |= 0x20 }
      if frame.rsv3 { first |= 0x10 }
      output[0] = first
      switch lengthBytes {
      case 0: output[1] = 0x80 | UInt8(payloadLength)
      case 2: output[1] = 0x80 | 126
      default: output[1] = 0x80 | 127
      }
      let length = UInt64(payloadLength)
      for index in 0..<lengthBytes {
        output[2 + index] = UInt8(
          truncatingIfNeeded: length >> UInt64(8 * (lengthBytes - 1 - index)))
      }
      for index in 0..<4 {
        output[2 + lengthBytes + index] = UInt8(
          truncatingIfNeeded: maskingKey >> UInt32(24 - 8 * index))
      }
      frame.payload.withUnsafeBytes { payload in
        mask(
          payload, into: UnsafeMutableRawBufferPointer(rebasing: output[headerLength...]),
          key: maskingKey)
      }
    }
    return bytes
  }

  /// Writes `source` XOR the key (§5.3) into `destination`, which is at least as long. Masking is
  /// its own inverse, so this also unmasks.
  static func mask(
    _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, key: UInt32
  ) {
    let count = source.count
    guard count > 0, let input = source.baseAddress, let output = destination.baseAddress else {
      return
    }
    // The key repeated over eight bytes, in memory order, so that whole words are masked at once:
    // each word starts at a multiple of 8, which is a multiple of 4, so the key lines up.
    let keyBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: key >> UInt32($0)) }
    var wordKey: UInt64 = 0
    withUnsafeMutableBytes(of: &wordKey) { word in
      for index in 0..<8 { word[index] = keyBytes[index & 3] }
    }
    var index = 0
    while index + 8 <= count {
      let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      output.storeBytes(of: word ^ wordKey, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < count {
      output.storeBytes(
        of: input.load(fromByteOffset: index, as: UInt8.self) ^ keyBytes[index & 3],
        toByteOffset: index, as: UInt8.self)
      index += 1
    }
  }
}
