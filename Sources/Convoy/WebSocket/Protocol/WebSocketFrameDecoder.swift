import Foundation

/// Reads the frames a server sends out of the bytes as they arrive (RFC 6455 §5.2).
///
/// A transport hands over whatever a read returned: half a header, several frames, a frame cut
/// anywhere. The decoder keeps the bytes it cannot use yet and gives back each frame once it is
/// whole. It checks every rule of §5 that one frame can break on its own, and checks each as soon
/// as the byte that decides it is here: a frame announcing more than ``maximumFrameSize`` fails
/// from its header, before any of its payload is kept, so a hostile length cannot make the client
/// buffer gigabytes. Rules that span frames (fragments, UTF-8, close payloads) are the
/// ``WebSocketMessageAssembler``'s.
///
/// Once a rule is broken the decoder stays failed: every later call throws the same error, since
/// the bytes after a bad frame cannot be framed reliably.
package struct WebSocketFrameDecoder: Sendable {
  /// The largest payload one frame may announce.
  package let maximumFrameSize: Int
  /// Whether RSV1 may be set, because an extension that uses it (permessage-deflate) was
  /// negotiated; which frames may carry it is the assembler's rule.
  package let allowsRSV1: Bool

  /// Bytes received and not yet returned as frames, from `start` on.
  private var buffer: [UInt8] = []
  private var start = 0
  private var failure: WebSocketProtocolError?

  /// Creates a decoder for one connection.
  ///
  /// - Parameters:
  ///   - maximumFrameSize: the largest payload one frame may carry; a larger one fails with
  ///     1009 as soon as its header is read.
  ///   - allowsRSV1: whether a negotiated extension gave RSV1 a meaning.
  package init(maximumFrameSize: Int, allowsRSV1: Bool = false) {
    self.maximumFrameSize = max(0, maximumFrameSize)
    self.allowsRSV1 = allowsRSV1
  }

  /// The number of bytes received and not yet returned as frames.
  package var bufferedByteCount: Int { buffer.count - start }

  /// Keeps `bytes` for ``nextFrame()``.
  ///
  /// Call ``nextFrame()`` until it returns `nil` after each append: a frame too big or broken is
  /// found then, so the decoder holds at most one frame's payload and the last bytes appended.
  package mutating func append(_ bytes: some Sequence<UInt8>) {
    guard failure == nil else { return }
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole frame, or `nil` when more bytes are needed.
  ///
  /// - Throws: ``WebSocketProtocolError`` for a frame that breaks §5, as soon as the bytes so far
  ///   show it; again on every later call.
  package mutating func nextFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
    if let failure { throw failure }
    do {
      guard let header = try readHeader() else { return nil }
      let payloadStart = start + header.length
      guard buffer.count - payloadStart >= header.payloadLength else { return nil }
      let payloadEnd = payloadStart + header.payloadLength
      let frame = WebSocketFrame(
        fin: header.fin, rsv1: header.rsv1, opcode: header.opcode,
        payload: Data(buffer[payloadStart..<payloadEnd]))
      consume(upTo: payloadEnd)
      return frame
    } catch {
      failure = error
      buffer = []
      start = 0
      throw error
    }
  }

  /// What a frame's header says, once the header is whole and valid.
  private struct Header {
    var fin: Bool
    var rsv1: Bool
    var opcode: WebSocketOpcode
    /// The header's own length: 2, 4 or 10 bytes (a server frame has no masking key).
    var length: Int
    var payloadLength: Int
  }

  /// Reads the header at `start`, checking each byte as soon as it is here.
  private func readHeader() throws(WebSocketProtocolError) -> Header? {
    let available = buffer.count - start
    guard available >= 1 else { return nil }
    let first = buffer[start]
    let fin = first & 0x80 != 0
    let rsv1 = first & 0x40 != 0
    if rsv1, !allowsRSV1 { throw .reservedBitSet(1) }
    if first & 0x20 != 0 { throw .reservedBitSet(2) }
    if first & 0x10 != 0 { throw .reservedBitSet(3) }
    guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
      throw .unknownOpcode(first & 0x0F)
    }
    if opcode.isControl, !fin { throw .fragmentedControlFrame(opcode) }
    guard available >= 2 else { return nil }
    let second = buffer[start + 1]
    // §5.1: a client closes the connection when a server's frame is masked.
    if second & 0x80 != 0 { throw .maskedFrame }
    let shortLength = second & 0x7F
    // A 16- or 64-bit length is above 125 already (§5.2 wants the shortest form).
    if opcode.isControl, shortLength > 125 { throw .controlFrameTooLong(opcode) }
    let length: UInt64
    let headerLength: Int
    switch shortLength {
    case 126:
      headerLength = 4
      guard available >= headerLength else { return nil }
      length = bigEndian(at: start + 2, count: 2)
    case 127:
      headerLength = 10
      guard available >= headerLength else { return nil }
      length = bigEndian(at: start + 2, count: 8)
      if length & (1 << 63) != 0 { throw .lengthOutOfRange }
    default:
      headerLength = 2
      length = UInt64(shortLength)
    }
    if length > UInt64(maximumFrameSize) {
      throw .frameTooBig(length: length, limit: maximumFrameSize)
    }
    return Header(
      fin: fin, rsv1: rsv1, opcode: opcode, length: headerLength, payloadLength: Int(length))
  }

  private func bigEndian(at offset: Int, count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in offset..<offset + count {
      value = value << 8 | UInt64(buffer[index])
    }
    return value
  }

  /// Drops the bytes before `end`, moving the rest to the front only when the dropped part is
  /// large and most of the buffer, so that each byte is moved a bounded number of times.
  private mutating func consume(upTo end: Int) {
    start = end
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start >= 4096, start * 2 >= buffer.count {
      buffer.removeSubrange(0..<start)
      start = 0
    }
  }
}
