/// The numeric values from `zlib.h` that permessage-deflate uses.
///
/// They are part of zlib's ABI and have not changed since zlib 1.0.
package enum ZlibConstant {
  // Flush values.
  /// `Z_NO_FLUSH`: for all but the last slice of a message too long for one call.
  package static let noFlush: CInt = 0
  /// `Z_SYNC_FLUSH`: ends the output at a byte boundary with an empty stored block, which
  /// RFC 7692 §7.2.1 then removes.
  package static let syncFlush: CInt = 2
  /// `Z_BLOCK`: makes inflate stop at each block boundary, so that ``ZStream/dataType`` tells
  /// whether a message ended on one.
  package static let block: CInt = 5

  // Return codes.
  package static let ok: CInt = 0
  package static let streamEnd: CInt = 1
  package static let needDictionary: CInt = 2
  package static let streamError: CInt = -2
  package static let dataError: CInt = -3
  package static let memoryError: CInt = -4
  package static let bufferError: CInt = -5
  package static let versionError: CInt = -6

  // deflateInit2_ arguments.
  /// `Z_DEFAULT_COMPRESSION`: level 6, the level RFC 7692's examples were made with.
  package static let defaultCompression: CInt = -1
  /// `Z_DEFLATED`, the only method.
  package static let deflated: CInt = 8
  /// zlib's default `memLevel`: 128 KiB of hash tables and buffers per stream at 15 window bits.
  package static let defaultMemoryLevel: CInt = 8
  /// `Z_DEFAULT_STRATEGY`.
  package static let defaultStrategy: CInt = 0

  /// `data_type` bit that inflate sets when it returned at a block boundary (with `Z_BLOCK`).
  package static let atBlockBoundary: CInt = 128
}
