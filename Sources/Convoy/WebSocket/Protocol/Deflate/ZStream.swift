/// zlib's `z_stream`, field for field, so that Swift can hand zlib a pointer to one.
///
/// Declared here because Convoy reads no C headers (see ``ZlibLibrary``). The layout is zlib's
/// since 1.0; on LP64 (64-bit Linux and Apple platforms) it is 112 bytes with the fields at
/// offsets 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96 and 104, as `offsetof` reports for
/// `/usr/include/zlib.h` (1.2.13). Swift lays out a struct of plain fields in declaration order
/// with their natural alignment, and the C types (`CUnsignedLong` for `uLong`) follow the
/// platform, so the offsets match; a test checks each one. zlib checks the size itself:
/// `deflateInit2_` and `inflateInit2_` take `sizeof(z_stream)` and answer `Z_VERSION_ERROR` when
/// it differs from theirs.
///
/// A stream must stay at one address from its `…Init2_` to its `…End`: zlib's internal state
/// points back at it. Its owners (``MessageDeflater``, ``MessageInflater``) therefore allocate it
/// with `UnsafeMutablePointer` rather than keeping it as a stored property.
package struct ZStream {
  /// `z_const Bytef *next_in`: zlib reads through it and never writes.
  var nextIn: UnsafeMutablePointer<UInt8>?
  /// `uInt avail_in`.
  var availIn: CUnsignedInt = 0
  /// `uLong total_in`.
  var totalIn: CUnsignedLong = 0
  /// `Bytef *next_out`.
  var nextOut: UnsafeMutablePointer<UInt8>?
  /// `uInt avail_out`.
  var availOut: CUnsignedInt = 0
  /// `uLong total_out`.
  var totalOut: CUnsignedLong = 0
  /// `z_const char *msg`: zlib's sentence for the last error, or null.
  var message: UnsafePointer<CChar>?
  /// `struct internal_state *state`.
  var state: OpaquePointer?
  /// `alloc_func zalloc`: null, so that zlib uses `malloc`.
  var allocate: OpaquePointer?
  /// `free_func zfree`: null, so that zlib uses `free`.
  var free: OpaquePointer?
  /// `voidpf opaque`.
  var opaque: UnsafeMutableRawPointer?
  /// `int data_type`: for inflate, bit 128 says it stopped at a block boundary (zlib.h).
  var dataType: CInt = 0
  /// `uLong adler`.
  var adler: CUnsignedLong = 0
  /// `uLong reserved`.
  var reserved: CUnsignedLong = 0

  /// A stream with every field zero, as zlib wants it before `…Init2_`.
  init() {}
}
