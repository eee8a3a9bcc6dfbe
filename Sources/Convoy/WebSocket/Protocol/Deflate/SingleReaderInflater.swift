import Foundation

/// A ``MessageInflater`` as the message assembler's decompressor, for the one reader of a
/// connection's frames that owns it: zlib's stream is a sequence and is never shared, which is why
/// the `Sendable` the hook asks for is only asserted.
///
/// A message that inflates past its limit is reported as the protocol's
/// ``WebSocketProtocolError/messageTooBig(limit:)`` (close code 1009); other failures pass through
/// for the assembler to close with 1007.
///
/// Made from the agreed parameters, it starts zlib's stream only when the first compressed
/// message comes: a socket that is compressed but idle does not hold zlib's window.
package struct SingleReaderInflater: WebSocketMessageInflating, @unchecked Sendable {
  private let stream: Stream

  package init(_ inflater: MessageInflater) {
    stream = Stream(made: inflater)
  }

  /// An inflater for `parameters` whose zlib stream starts with the first message.
  package init(zlib: ZlibLibrary, parameters: PerMessageDeflateParameters) {
    stream = Stream(zlib: zlib, parameters: parameters)
  }

  package func inflate(_ compressed: Data, limit: Int) throws -> Data {
    do {
      return try stream.inflater().inflate(compressed, limit: limit)
    } catch .messageTooBig(let limit) {
      throw WebSocketProtocolError.messageTooBig(limit: limit)
    }
  }

  /// The inflater, made on first use; used by the one reader only.
  private final class Stream {
    private var made: MessageInflater?
    private let zlib: ZlibLibrary?
    private let parameters: PerMessageDeflateParameters?

    init(made: MessageInflater) {
      self.made = made
      zlib = nil
      parameters = nil
    }

    init(zlib: ZlibLibrary, parameters: PerMessageDeflateParameters) {
      self.zlib = zlib
      self.parameters = parameters
    }

    func inflater() throws(PerMessageDeflateError) -> MessageInflater {
      if let made { return made }
      let inflater = try MessageInflater(zlib: zlib!, parameters: parameters!)
      made = inflater
      return inflater
    }
  }
}
