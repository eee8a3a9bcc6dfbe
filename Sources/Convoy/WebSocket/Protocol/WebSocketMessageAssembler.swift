import Foundation

/// Turns the frames a server sends into messages and control frames (RFC 6455 §5.4-§5.6).
///
/// A text or binary message is a first frame and any number of continuation frames, the last
/// with fin set; control frames may come between them and are handed back at once, so a ping is
/// answered while a large message is still arriving (§5.4). The assembler holds the rules that
/// span frames: fragment order, the message size limit, UTF-8 across fragments, the close
/// payload, and which frames may carry RSV1 under permessage-deflate (RFC 7692 §6). Text is
/// checked fragment by fragment, so a bad sequence fails at the fragment that holds it rather
/// than after the whole message has been kept.
///
/// Frames come from a ``WebSocketFrameDecoder``, which has checked each frame on its own. Once a
/// rule is broken the assembler stays failed and every later call throws the same error.
package struct WebSocketMessageAssembler: Sendable {
  /// What one frame completed.
  package enum Output: Sendable, Hashable {
    /// A whole text message, validated as UTF-8.
    case text(String)
    /// A whole binary message.
    case binary(Data)
    /// A ping, whose payload the client's pong must echo (§5.5.2).
    case ping(Data)
    /// A pong.
    case pong(Data)
    /// The server's close frame: its code, `nil` when the frame had none (which §7.1.5 reports
    /// as 1005), and its reason, empty when it had none.
    case close(code: WebSocketCloseCode?, reason: String)
  }

  /// The largest message, in bytes: received, and once inflated.
  package let maximumMessageSize: Int

  private var inflater: (any WebSocketMessageInflating)?
  /// The message under way: its opcode, whether it is compressed, and its payload so far.
  private var message: (opcode: WebSocketOpcode, isCompressed: Bool)?
  private var payload = Data()
  private var utf8 = UTF8Validator()
  private var failure: WebSocketProtocolError?

  /// Creates an assembler for one connection.
  ///
  /// - Parameters:
  ///   - maximumMessageSize: the largest message; a larger one fails with 1009.
  ///   - inflater: the negotiated decompression, or `nil` when none was agreed and a message
  ///     marked compressed breaks the protocol.
  package init(maximumMessageSize: Int, inflater: (any WebSocketMessageInflating)? = nil) {
    self.maximumMessageSize = max(0, maximumMessageSize)
    self.inflater = inflater
  }

  /// Takes the next frame.
  ///
  /// - Returns: a message when `frame` finished one, a control frame's content for a control
  ///   frame, `nil` for a fragment that leaves its message unfinished.
  /// - Throws: ``WebSocketProtocolError`` for a frame that breaks the rules, then again on every
  ///   later call.
  package mutating func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Output? {
    if let failure { throw failure }
    do {
      return try handle(frame)
    } catch {
      failure = error
      message = nil
      payload = Data()
      throw error
    }
  }

  private mutating func handle(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Output? {
    switch frame.opcode {
    case .ping, .pong, .close:
      if frame.rsv1 { throw .compressedControlFrame(frame.opcode) }
      return try control(frame)
    case .continuation:
      guard let message else { throw .continuationWithoutMessage }
      if frame.rsv1 { throw .compressedContinuation }
      try append(frame.payload, of: message)
    case .text, .binary:
      if message != nil { throw .messageInterrupted(by: frame.opcode) }
      if frame.rsv1, inflater == nil { throw .compressionNotNegotiated }
      let started = (opcode: frame.opcode, isCompressed: frame.rsv1)
      message = started
      payload = Data()
      utf8 = UTF8Validator()
      try append(frame.payload, of: started)
    }
    guard frame.fin, let finished = message else { return nil }
    message = nil
    defer { payload = Data() }
    return try complete(finished)
  }

  private mutating func append(
    _ fragment: Data, of message: (opcode: WebSocketOpcode, isCompressed: Bool)
  ) throws(WebSocketProtocolError) {
    guard fragment.count <= maximumMessageSize - payload.count else {
      throw .messageTooBig(limit: maximumMessageSize)
    }
    // Compressed text can only be checked once inflated.
    if message.opcode == .text, !message.isCompressed, !utf8.validate(fragment) {
      throw .invalidUTF8
    }
    // A message of one frame (most are) keeps the frame's bytes rather than a copy of them.
    if payload.isEmpty { payload = fragment } else { payload.append(fragment) }
  }

  private mutating func complete(
    _ message: (opcode: WebSocketOpcode, isCompressed: Bool)
  ) throws(WebSocketProtocolError) -> Output {
    var bytes = payload
    if message.isCompressed {
      bytes = try inflate(bytes)
      guard message.opcode != .text || utf8.validate(bytes) else { throw .invalidUTF8 }
    }
    if message.opcode == .binary { return .binary(bytes) }
    // A sequence cut by the end of the message is certain to be bad only now.
    guard utf8.finish() else { throw .invalidUTF8 }
    return .text(String(decoding: bytes, as: UTF8.self))
  }

  private mutating func inflate(_ compressed: Data) throws(WebSocketProtocolError) -> Data {
    guard var inflater else { throw .compressionNotNegotiated }
    defer { self.inflater = inflater }
    let inflated: Data
    do {
      inflated = try inflater.inflate(compressed, limit: maximumMessageSize)
    } catch let error as WebSocketProtocolError {
      throw error
    } catch {
      throw .inflationFailed
    }
    // The limit is the assembler's rule; an inflater that overshoots it is caught here.
    guard inflated.count <= maximumMessageSize else {
      throw .messageTooBig(limit: maximumMessageSize)
    }
    return inflated
  }

  private func control(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Output {
    switch frame.opcode {
    case .ping: return .ping(frame.payload)
    case .pong: return .pong(frame.payload)
    default: return try close(frame.payload)
    }
  }

  /// §5.5.1: empty, or a two-byte code that may be sent followed by a UTF-8 reason.
  private func close(_ payload: Data) throws(WebSocketProtocolError) -> Output {
    guard !payload.isEmpty else { return .close(code: nil, reason: "") }
    guard payload.count >= 2 else { throw .closePayloadTooShort }
    let first = payload.startIndex
    let code = WebSocketCloseCode(
      rawValue: UInt16(payload[first]) << 8 | UInt16(payload[first + 1]))
    guard code.isAllowedOnTheWire else { throw .closeCodeNotAllowed(code.rawValue) }
    let reason = payload.dropFirst(2)
    var validator = UTF8Validator()
    guard validator.validate(reason), validator.finish() else { throw .invalidCloseReason }
    return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
  }
}
