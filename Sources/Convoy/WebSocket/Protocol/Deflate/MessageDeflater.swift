import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compresses the messages one connection sends, as permessage-deflate wants them (RFC 7692
/// §7.2.1): raw DEFLATE ended by a sync flush, without the flush's trailing `00 00 FF FF`.
///
/// One zlib stream lives as long as the deflater, so that with context takeover a message can
/// refer back to the ones before it (RFC 7692 §7.2.3.2: a repeated "Hello" becomes 5 bytes);
/// with `client_no_context_takeover` the stream is reset after each message instead.
///
/// Not `Sendable`: a stream's context is a sequence, so the deflater belongs to the one serial
/// context (queue, actor or task) that writes a connection's frames, in the order it sends them.
package final class MessageDeflater {
  /// Messages shorter than this are sent uncompressed: below a few dozen bytes DEFLATE's block
  /// header and Huffman tables cost more than they save.
  package let minimumMessageSize: Int
  /// The LZ77 window zlib uses, in bits: the negotiated one, except 9 for a negotiated 8.
  ///
  /// zlib refuses a raw deflate stream with 8 window bits (since 1.2.9; for its own wrapper it
  /// silently uses 9, "until 256-byte window bug fixed"). 9 is safe to use instead: zlib never
  /// emits a distance longer than the window minus its 262 bytes of look-ahead, which for a
  /// 512-byte window is 250, within the 256 bytes a peer that asked for 8 keeps.
  package let windowBits: Int

  /// Below this many bytes a message goes uncompressed: deflate's framing would outweigh what
  /// it saves.
  package static let defaultMinimumMessageSize = 64

  private let zlib: ZlibLibrary
  private let stream: ZlibLibrary.Stream
  private let noContextTakeover: Bool

  /// - Parameters:
  ///   - maximumWindowBits: `client_max_window_bits` as negotiated, 8 to 15.
  ///   - noContextTakeover: whether `client_no_context_takeover` was negotiated.
  ///   - minimumMessageSize: the size below which ``shouldCompress(byteCount:)`` says no.
  ///   - compressionLevel: zlib's level, 0 to 9, or -1 for its default (6).
  package init(
    zlib: ZlibLibrary, maximumWindowBits: Int, noContextTakeover: Bool,
    minimumMessageSize: Int = defaultMinimumMessageSize,
    compressionLevel: CInt = ZlibConstant.defaultCompression
  ) throws(PerMessageDeflateError) {
    precondition((8...15).contains(maximumWindowBits), "window bits are 8 to 15 (RFC 7692 §7.1.2)")
    let bits = max(maximumWindowBits, 9)
    let stream = try zlib.startStream("deflateInit2_") {
      zlib.deflateInit2(
        $0, level: compressionLevel, windowBits: -CInt(bits),
        memoryLevel: ZlibConstant.defaultMemoryLevel, strategy: ZlibConstant.defaultStrategy)
    }
    self.zlib = zlib
    self.stream = stream
    self.windowBits = bits
    self.noContextTakeover = noContextTakeover
    self.minimumMessageSize = minimumMessageSize
  }

  /// The deflater for what this client sends: the `client_…` half of what was negotiated.
  package convenience init(
    zlib: ZlibLibrary, parameters: PerMessageDeflateParameters,
    minimumMessageSize: Int = defaultMinimumMessageSize
  ) throws(PerMessageDeflateError) {
    try self.init(
      zlib: zlib, maximumWindowBits: parameters.clientMaxWindowBits,
      noContextTakeover: parameters.clientNoContextTakeover,
      minimumMessageSize: minimumMessageSize)
  }

  deinit {
    _ = zlib.deflateEnd(stream)
    ZlibLibrary.free(stream)
  }

  /// Whether a message of `byteCount` bytes is worth compressing; the caller sends it without
  /// RSV1 (and without calling ``deflate(_:)``) when not.
  package func shouldCompress(byteCount: Int) -> Bool {
    byteCount >= minimumMessageSize
  }

  /// The payload of the compressed message `message`, to send with RSV1 on its first frame.
  ///
  /// Memory is bounded by the message: the output buffer starts at zlib's bound for
  /// incompressible input (the message plus 5 bytes per 16 KiB stored block) and grows only if
  /// that is ever short, and is shrunk to what was written.
  package func deflate(_ message: Data) throws(PerMessageDeflateError) -> Data {
    // zlib answers a sync flush of no input right after another sync flush with Z_BUF_ERROR
    // and no bytes. An empty stored block (one 0x00 once `00 00 FF FF` is removed) is what it
    // would write, valid at the byte boundary every message ends on, and leaves the context as
    // it is.
    guard !message.isEmpty else { return Data([0x00]) }
    let result = message.withUnsafeBytes { input in
      compress(input.baseAddress!, count: input.count)
    }
    switch result {
    case .success(let payload):
      if noContextTakeover { _ = zlib.deflateReset(stream) }
      return payload
    case .failure(let error):
      // The next message must not continue a stream left in the middle of this one.
      _ = zlib.deflateReset(stream)
      throw error
    }
  }

  private func compress(
    _ input: UnsafeRawPointer, count: Int
  ) -> Result<Data, PerMessageDeflateError> {
    var capacity = count + count >> 12 + count >> 14 + 64
    guard var buffer = malloc(capacity) else {
      return .failure(.zlibFailure(function: "malloc", code: ZlibConstant.memoryError, reason: nil))
    }
    var produced = 0
    var consumed = 0
    // avail_in is 32 bits: a message over 1 GiB goes in as several slices of one flush.
    let slice = 1 << 30
    repeat {
      let length = min(slice, count - consumed)
      let isLast = consumed + length == count
      stream.pointee.nextIn = UnsafeMutablePointer(
        mutating: (input + consumed).assumingMemoryBound(to: UInt8.self))
      stream.pointee.availIn = CUnsignedInt(length)
      while true {
        if produced == capacity {
          capacity += capacity / 2
          guard let grown = realloc(buffer, capacity) else {
            free(buffer)
            return .failure(
              .zlibFailure(function: "realloc", code: ZlibConstant.memoryError, reason: nil))
          }
          buffer = grown
        }
        let room = min(capacity - produced, Int(CUnsignedInt.max))
        stream.pointee.nextOut = (buffer + produced).assumingMemoryBound(to: UInt8.self)
        stream.pointee.availOut = CUnsignedInt(room)
        let code = zlib.deflate(
          stream, flush: isLast ? ZlibConstant.syncFlush : ZlibConstant.noFlush)
        produced += room - Int(stream.pointee.availOut)
        // Z_BUF_ERROR is "no progress possible", which here only means nothing was left to do.
        guard code == ZlibConstant.ok || code == ZlibConstant.bufferError else {
          free(buffer)
          let reason = stream.pointee.message.map { String(cString: $0) }
          return .failure(.zlibFailure(function: "deflate", code: code, reason: reason))
        }
        // zlib.h: with room left after the call, the input is used up and the flush complete.
        if stream.pointee.availOut > 0 && stream.pointee.availIn == 0 { break }
      }
      consumed += length
    } while consumed < count
    stream.pointee.nextIn = nil
    stream.pointee.nextOut = nil
    let bytes = buffer.assumingMemoryBound(to: UInt8.self)
    guard produced >= 4, bytes[produced - 4] == 0x00, bytes[produced - 3] == 0x00,
      bytes[produced - 2] == 0xFF, bytes[produced - 1] == 0xFF
    else {
      free(buffer)
      return .failure(
        .zlibFailure(function: "deflate", code: ZlibConstant.ok, reason: "no sync flush marker"))
    }
    produced -= 4
    // A sync flush of non-empty input writes at least one byte before the marker; a zero size
    // would make realloc free the buffer.
    let trimmed = realloc(buffer, produced) ?? buffer
    return .success(Data(bytesNoCopy: trimmed, count: produced, deallocator: .free))
  }
}
