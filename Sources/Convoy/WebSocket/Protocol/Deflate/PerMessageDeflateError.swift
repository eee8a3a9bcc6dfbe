/// Why a message could not be compressed or decompressed with permessage-deflate.
///
/// Each case says which close code the connection fails with. RFC 7692 describes the
/// transformation (§7.2.1, §7.2.2) but gives no close code for a payload that does not
/// decompress or decompresses too far; the codes below are RFC 6455 §7.4.1's.
package enum PerMessageDeflateError: Error, Sendable, Hashable {
  /// The message inflated past `limit` bytes; decompression stopped there.
  ///
  /// Close code 1009 (RFC 6455 §7.4.1: a message too big to process). A compressed message is
  /// measured by what it inflates to, not by its payload, or a few kilobytes of compressed
  /// zeros would take gigabytes.
  case messageTooBig(limit: Int)

  /// The payload is not the DEFLATE data its RSV1 bit announced: zlib rejected it, or it ended
  /// inside a block. `reason` is zlib's own sentence when it gave one.
  ///
  /// Close code 1007, not 1002: the frames were well formed and compression was negotiated, so
  /// no rule of the protocol was broken; what is wrong is the data inside the message, which is
  /// what 1007 means ("data within a message that was not consistent with the type of the
  /// message", like invalid UTF-8 in a text message). 1002 is for the frame-level faults the
  /// frame layer detects itself: RSV1 without negotiated compression, or on a continuation or
  /// control frame (RFC 7692 §6). Python's `websockets` sends 1002 for this case; neither code
  /// is mandated, so tests should not expect one from a peer.
  case invalidCompressedData(reason: String?)

  /// zlib failed in a way no payload causes: a stream could not be set up, or memory ran out.
  /// `function` is the zlib function, `code` its return value, `reason` zlib's sentence if any.
  ///
  /// Close code 1011 (an unexpected condition on this side).
  case zlibFailure(function: String, code: CInt, reason: String?)
}
