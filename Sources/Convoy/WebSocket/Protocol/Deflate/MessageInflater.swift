import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decompresses the messages one connection receives with RSV1 set (RFC 7692 §7.2.2): the
/// payload with `00 00 FF FF` appended, as raw DEFLATE, never past a size limit.
///
/// One zlib stream lives as long as the inflater, so that a message can refer back to the ones
/// before it unless `server_no_context_takeover` was negotiated (then the stream is reset after
/// each message, and a reference back fails as invalid data).
///
/// The limit is the defence against compression bombs: a payload of a few kilobytes can
/// inflate to gigabytes (DEFLATE reaches about 1:1000). Output goes into one buffer that never
/// grows past `limit + 1` bytes, and the first byte past the limit ends decompression with
/// ``PerMessageDeflateError/messageTooBig(limit:)``; nothing is inflated further.
///
/// Not `Sendable`: a stream's context is a sequence, so the inflater belongs to the one serial
/// context (queue, actor or task) that reads a connection's frames, in the order they arrive.
package final class MessageInflater {
  /// The LZ77 window zlib keeps, in bits: `server_max_window_bits` as negotiated. Inflating
  /// takes an 8-bit window as it is (only zlib's deflate refuses one).
  package let windowBits: Int

  private let zlib: ZlibLibrary
  private let stream: ZlibLibrary.Stream
  private let noContextTakeover: Bool

  /// What RFC 7692 §7.2.2 appends to every payload: the end of the empty stored block that the
  /// sender's sync flush wrote and then removed.
  private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

  /// - Parameters:
  ///   - windowBits: `server_max_window_bits` as negotiated, 8 to 15 (15 when not negotiated).
  ///   - noContextTakeover: whether `server_no_context_takeover` was negotiated.
  package init(
    zlib: ZlibLibrary, windowBits: Int, noContextTakeover: Bool
  ) throws(PerMessageDeflateError) {
    precondition((8...15).contains(windowBits), "window bits are 8 to 15 (RFC 7692 §7.1.2)")
    let stream = try zlib.startStream("inflateInit2_") {
      zlib.inflateInit2($0, windowBits: -CInt(windowBits))
    }
    self.zlib = zlib
    self.stream = stream
    self.windowBits = windowBits
    self.noContextTakeover = noContextTakeover
  }

  /// The inflater for what the server sends: the `server_…` half of what was negotiated.
  package convenience init(
    zlib: ZlibLibrary, parameters: PerMessageDeflateParameters
  ) throws(PerMessageDeflateError) {
    try self.init(
      zlib: zlib, windowBits: parameters.serverMaxWindowBits,
      noContextTakeover: parameters.serverNoContextTakeover)
  }

  deinit {
    _ = zlib.inflateEnd(stream)
    ZlibLibrary.free(stream)
  }

  /// The message whose compressed payload (all its frames' payloads, joined) is `payload`.
  ///
  /// - Parameter limit: the most bytes the message may have once inflated.
  /// - Throws: ``PerMessageDeflateError/messageTooBig(limit:)`` at the first byte past `limit`
  ///   (close with 1009); ``PerMessageDeflateError/invalidCompressedData(reason:)`` when the
  ///   payload is not DEFLATE data ending on a block boundary (close with 1007). After either,
  ///   the stream is reset: the connection is to be failed, and the inflater must never go on
  ///   from the middle of a broken message.
  package func inflate(_ payload: Data, limit: Int) throws(PerMessageDeflateError) -> Data {
    precondition(limit >= 0, "a negative limit")
    // No bytes at all is how some peers send an empty compressed message. Feeding only the
    // tail would leave zlib inside a stored block's header; the context is unchanged instead.
    guard !payload.isEmpty else { return Data() }
    let result = payload.withUnsafeBytes { input in
      decompress(input.baseAddress!, count: input.count, limit: limit)
    }
    switch result {
    case .success(let (message, endedStream)):
      // A final block (BFINAL, RFC 7692 §7.2.3.4) ends zlib's stream: the next message can only
      // start a new one.
      if noContextTakeover || endedStream { _ = zlib.inflateReset(stream) }
      return message
    case .failure(let error):
      _ = zlib.inflateReset(stream)
      throw error
    }
  }

  /// Inflates the payload then the tail; `endedStream` says a final block was met.
  private func decompress(
    _ input: UnsafeRawPointer, count: Int, limit: Int
  ) -> Result<(message: Data, endedStream: Bool), PerMessageDeflateError> {
    let ceiling = limit == .max ? limit : limit + 1
    // A first guess of 4:1, the ratio of typical JSON; the buffer doubles from there.
    var capacity = min(ceiling, max(4096, count < Int.max / 4 ? count * 4 : .max))
    guard var buffer = malloc(capacity) else {
      return .failure(.zlibFailure(function: "malloc", code: ZlibConstant.memoryError, reason: nil))
    }
    var produced = 0
    var atBlockBoundary = false
    var endedStream = false
    // avail_in is 32 bits: a payload over 1 GiB goes in as several slices.
    let slice = 1 << 30
    var slices: [(UnsafeRawPointer, Int)] = stride(from: 0, to: count, by: slice).map {
      (input + $0, min(slice, count - $0))
    }
    let failure: PerMessageDeflateError? = Self.tail.withUnsafeBytes { tail in
      slices.append((tail.baseAddress!, tail.count))
      for (start, length) in slices where !endedStream {
        stream.pointee.nextIn = UnsafeMutablePointer(
          mutating: start.assumingMemoryBound(to: UInt8.self))
        stream.pointee.availIn = CUnsignedInt(length)
        while true {
          if produced == capacity {
            if capacity == ceiling { return .messageTooBig(limit: limit) }
            capacity = capacity < ceiling / 2 ? capacity * 2 : ceiling
            guard let grown = realloc(buffer, capacity) else {
              return .zlibFailure(function: "realloc", code: ZlibConstant.memoryError, reason: nil)
            }
            buffer = grown
          }
          let room = min(capacity - produced, Int(CUnsignedInt.max))
          stream.pointee.nextOut = (buffer + produced).assumingMemoryBound(to: UInt8.self)
          stream.pointee.availOut = CUnsignedInt(room)
          // Z_BLOCK stops at each block boundary, where zlib sets bit 128 of data_type: how the
          // end of the message is known to be the end of a block, not the middle of one.
          let code = zlib.inflate(stream, flush: ZlibConstant.block)
          produced += room - Int(stream.pointee.availOut)
          switch code {
          case ZlibConstant.ok:
            atBlockBoundary = stream.pointee.dataType & ZlibConstant.atBlockBoundary != 0
          case ZlibConstant.streamEnd:
            endedStream = true
          case ZlibConstant.bufferError where stream.pointee.availIn == 0:
            // No progress because this slice is used up; data_type then no longer says where
            // the last call stopped, so the previous answer stands.
            break
          case ZlibConstant.dataError, ZlibConstant.needDictionary, ZlibConstant.bufferError:
            return .invalidCompressedData(
              reason: stream.pointee.message.map { String(cString: $0) })
          default:
            let reason = stream.pointee.message.map { String(cString: $0) }
            return .zlibFailure(function: "inflate", code: code, reason: reason)
          }
          if produced > limit { return .messageTooBig(limit: limit) }
          // The bytes after a final block are the rest of the flush and the tail: not inflated.
          if endedStream { break }
          // Room left with the input used up: nothing of this slice is still pending in zlib.
          if stream.pointee.availIn == 0 && stream.pointee.availOut > 0 { break }
        }
      }
      if !endedStream && !atBlockBoundary {
        return .invalidCompressedData(reason: "the message ends inside a DEFLATE block")
      }
      return nil
    }
    stream.pointee.nextIn = nil
    stream.pointee.nextOut = nil
    if let failure {
      free(buffer)
      return .failure(failure)
    }
    guard produced > 0 else {
      free(buffer)
      return .success((Data(), endedStream))
    }
    let trimmed = produced < capacity ? realloc(buffer, produced) ?? buffer : buffer
    return .success((Data(bytesNoCopy: trimmed, count: produced, deallocator: .free), endedStream))
  }
}
