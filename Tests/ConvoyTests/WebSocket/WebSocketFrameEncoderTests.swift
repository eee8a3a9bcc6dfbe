import Foundation
import Testing

@testable import Convoy

/// RFC 6455 §5.2-§5.3 and the examples of §5.7, for the frames a client sends.
@Suite struct WebSocketFrameEncoderTests {
  private let rfcKey: UInt32 = 0x37FA_213D

  /// Unmasks the payload of a client frame byte by byte, independently of the encoder's loop.
  private func unmasked(_ bytes: Data) -> (header: [UInt8], key: [UInt8], payload: [UInt8]) {
    let bytes = Array(bytes)
    let short = Int(bytes[1] & 0x7F)
    let extra = short == 126 ? 2 : short == 127 ? 8 : 0
    let key = Array(bytes[(2 + extra)..<(6 + extra)])
    let payload = bytes[(6 + extra)...].enumerated().map { $0.element ^ key[$0.offset % 4] }
    return (Array(bytes[..<(2 + extra)]), key, payload)
  }

  @Test func masksHelloAsRFC6455SectionFiveSevenShows() {
    let frame = WebSocketFrame(opcode: .text, payload: Data("Hello".utf8))
    #expect(
      Array(WebSocketFrameEncoder.encode(frame, maskingKey: rfcKey))
        == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
  }

  @Test func masksAPongAsRFC6455SectionFiveSevenShows() {
    let frame = WebSocketFrame(opcode: .pong, payload: Data("Hello".utf8))
    #expect(
      Array(WebSocketFrameEncoder.encode(frame, maskingKey: rfcKey))
        == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
  }

  @Test func takesEachFramesKeyFromTheInjectedGenerator() {
    var encoder = WebSocketFrameEncoder(random: ScriptedRandom([0x37FA_213D, 0x0102_0304]))
    let frame = WebSocketFrame(opcode: .text, payload: Data("Hello".utf8))
    let first = encoder.encode(frame)
    let second = encoder.encode(frame)
    #expect(Array(first) == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    #expect(unmasked(second).key == [0x01, 0x02, 0x03, 0x04])
    #expect(unmasked(second).payload == Array("Hello".utf8))
  }

  @Test func theSystemGeneratorGivesEveryFrameAFreshKey() {
    var encoder = WebSocketFrameEncoder()
    let frame = WebSocketFrame(opcode: .binary, payload: Data([1, 2, 3]))
    // Eight keys drawn from 2^32: all equal only if the key were not fresh.
    let keys = Set((0..<8).map { _ in unmasked(encoder.encode(frame)).key })
    #expect(keys.count > 1)
  }

  @Test(arguments: [
    (0, [0x80] as [UInt8]), (125, [0xFD]), (126, [0xFE, 0x00, 0x7E]),
    (256, [0xFE, 0x01, 0x00]), (65535, [0xFE, 0xFF, 0xFF]),
    (65536, [0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]),
  ])
  func usesTheShortestLengthForm(length: Int, lengthBytes: [UInt8]) {
    let payload = Data((0..<length).map { UInt8(truncatingIfNeeded: $0) })
    let bytes = WebSocketFrameEncoder.encode(
      WebSocketFrame(opcode: .binary, payload: payload), maskingKey: rfcKey)
    let frame = unmasked(bytes)
    #expect(frame.header == [0x82] + lengthBytes)
    #expect(frame.key == [0x37, 0xFA, 0x21, 0x3D])
    #expect(frame.payload == Array(payload))
    #expect(bytes.count == 1 + lengthBytes.count + 4 + length)
  }

  @Test func masksEveryPayloadLengthAroundTheWordLoop() {
    for length in 0..<40 {
      let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      let bytes = WebSocketFrameEncoder.encode(
        WebSocketFrame(opcode: .binary, payload: Data(payload)), maskingKey: 0xA1B2_C3D4)
      #expect(unmasked(bytes).payload == payload, "length \(length)")
    }
  }

  @Test func masksAPayloadThatIsASliceOfLargerData() {
    let whole = Data((0..<64).map { UInt8($0) })
    let slice = whole[13..<50]
    let bytes = WebSocketFrameEncoder.encode(
      WebSocketFrame(opcode: .binary, payload: slice), maskingKey: rfcKey)
    #expect(unmasked(bytes).payload == Array(slice))
  }

  @Test func writesFinAndReservedBits() {
    let frame = WebSocketFrame(
      fin: false, rsv1: true, rsv2: false, rsv3: true, opcode: .text, payload: Data())
    #expect(WebSocketFrameEncoder.encode(frame, maskingKey: 0).first == 0x51)
    let continuation = WebSocketFrame(fin: true, rsv2: true, opcode: .continuation)
    #expect(WebSocketFrameEncoder.encode(continuation, maskingKey: 0).first == 0xA0)
  }

  @Test func aCloseFrameCarriesTheCodeBigEndianAndTheReason() {
    let frame = WebSocketFrame.close(code: .goingAway, reason: "bye")
    #expect(frame.opcode == .close)
    #expect(Array(frame.payload) == [0x03, 0xE9] + Array("bye".utf8))
    #expect(WebSocketFrame.close(code: nil, reason: "ignored").payload.isEmpty)
  }

  @Test func aLongCloseReasonIsCutAtAWholeCharacterWithinTheControlFrameLimit() {
    let frame = WebSocketFrame.close(
      code: .normalClosure, reason: String(repeating: "é", count: 100))
    // 2 bytes of code, then 61 two-byte characters: a 62nd would make 126.
    #expect(frame.payload.count == 124)
    var validator = UTF8Validator()
    let reasonIsValid = validator.validate(frame.payload.dropFirst(2)) && validator.finish()
    #expect(reasonIsValid)
  }
}
