import Foundation

/// A ``MessageInflater`` as the message assembler's decompressor, for the one reader of a
/// connection's frames that owns it: zlib's stream is a sequence and is never shared, which is why
/// the `Sendable` the hook asks for is only asserted.
///
/// A message that inflates past its limit is reported as the protocol's
/// ``WebSocketProtocolError/messageTooBig(limit:)`` (close code 1009); other failures pass through
/// for the assembler to close with 1007.
package struct SingleReaderInflater: WebSocketMessageInflating, @unchecked Sendable {
  private let inflater: MessageInflater

  package init(_ inflater: MessageInflater) {
    self.inflater = inflater
  }

  package func inflate(_ compressed: Data, limit: Int) throws -> Data {
    do {
      return try inflater.inflate(compressed, limit: limit)
    } catch .messageTooBig(let limit) {
      throw WebSocketProtocolError.messageTooBig(limit: limit)
    }
  }
}
