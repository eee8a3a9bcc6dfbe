import Foundation

/// Inflates a compressed message, for the ``WebSocketMessageAssembler``: the seam where
/// permessage-deflate (RFC 7692) plugs in without the assembler knowing zlib.
///
/// RFC 7692 compresses a message, not a frame (§6.1): the assembler gathers a compressed
/// message's fragments and hands the whole payload over once. An implementation appends the
/// `00 00 FF FF` tail the sender removed (§7.2.2), inflates, and keeps its sliding window for the
/// next message unless `server_no_context_takeover` was agreed; state that lives on is why the
/// method is `mutating` (a class holding a zlib stream satisfies it as well).
package protocol WebSocketMessageInflating: Sendable {
  /// The bytes `compressed` inflates to.
  ///
  /// - Parameters:
  ///   - compressed: the payload of every frame of one message, in order, without the trailing
  ///     `00 00 FF FF`.
  ///   - limit: the most bytes the message may inflate to. An implementation stops inflating as
  ///     soon as it passes the limit, so a few kilobytes that inflate to gigabytes (a zip bomb)
  ///     cost no more than the limit.
  /// - Throws: ``WebSocketProtocolError/messageTooBig(limit:)`` past the limit (the client
  ///   closes with 1009); any other error for data that does not inflate, which the assembler
  ///   reports as ``WebSocketProtocolError/inflationFailed`` (1007).
  mutating func inflate(_ compressed: Data, limit: Int) throws -> Data
}
