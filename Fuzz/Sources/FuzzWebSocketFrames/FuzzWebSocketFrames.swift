// WebSocket frames from a server (RFC 6455 §5) and the messages made of them, with
// permessage-deflate (RFC 7692) when the first byte's low bit asks for it. The first byte also
// picks where the rest is cut in two. Checks: no crash; every frame the decoder hands out
// respects the limits it was given (a control frame's 125 bytes, the frame limit); every message
// stays within the message limit and a text message is valid UTF-8; and the same bytes give the
// same frames, or the same error, whether they arrive whole or cut at any point.
import Foundation

@testable import Convoy

private let frameLimit = 1 << 16
private let messageLimit = 1 << 17
private let zlib = try? ZlibLibrary.shared.get()

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let input = UnsafeBufferPointer(start: start, count: count)
  let compressed = input[0] & 1 == 1
  let bytes = Data(input.dropFirst())
  let cut = bytes.isEmpty ? 0 : Int(input[0] >> 1) % (bytes.count + 1)

  let whole = decode([bytes], compressed: compressed)
  let split = decode([bytes.prefix(cut), bytes.dropFirst(cut)], compressed: compressed)
  precondition(whole == split, "cutting the bytes changed what they decode to")
  return 0
}

/// What `pieces` decode to: the frames' outputs in order, then the error that stopped them.
private func decode(_ pieces: [Data], compressed: Bool) -> [String] {
  var decoder = WebSocketFrameDecoder(maximumFrameSize: frameLimit, allowsRSV1: compressed)
  let inflater: (any WebSocketMessageInflating)? =
    compressed
    ? zlib.flatMap {
      try? SingleReaderInflater(MessageInflater(zlib: $0, windowBits: 15, noContextTakeover: false))
    } : nil
  var assembler = WebSocketMessageAssembler(maximumMessageSize: messageLimit, inflater: inflater)
  var outputs: [String] = []
  do {
    for piece in pieces {
      decoder.append(piece)
      while let frame = try decoder.nextFrame() {
        precondition(frame.payload.count <= frameLimit, "a frame over the limit got through")
        if frame.opcode.isControl {
          precondition(frame.payload.count <= 125, "a control frame over 125 bytes")
          precondition(frame.fin, "a fragmented control frame")
        }
        guard let output = try assembler.receive(frame) else { continue }
        switch output {
        case .text(let text):
          precondition(text.utf8.count <= messageLimit, "a message over the limit")
          precondition(String(validating: Array(text.utf8), as: UTF8.self) != nil, "bad UTF-8")
          outputs.append("text \(text.utf8.count)")
        case .binary(let data):
          precondition(data.count <= messageLimit, "a message over the limit")
          outputs.append("binary \(data.count)")
        case .ping(let payload): outputs.append("ping \(payload.count)")
        case .pong(let payload): outputs.append("pong \(payload.count)")
        case .close(let code, let reason):
          outputs.append("close \(code?.rawValue ?? 0) \(reason.utf8.count)")
        }
      }
    }
  } catch {
    outputs.append("error \(error)")
  }
  return outputs
}
