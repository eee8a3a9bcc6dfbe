import Foundation
import Testing

@testable import Convoy

/// RFC 6455 §5 for the frames a server sends: the examples of §5.7, framing at any split, and
/// every rule one frame can break.
@Suite struct WebSocketFrameDecoderTests {
  private let hello = Array("Hello".utf8)

  private func decode(
    _ bytes: [UInt8], maximumFrameSize: Int = 1 << 20, allowsRSV1: Bool = false
  ) throws(WebSocketProtocolError) -> [WebSocketFrame] {
    var decoder = WebSocketFrameDecoder(
      maximumFrameSize: maximumFrameSize, allowsRSV1: allowsRSV1)
    decoder.append(bytes)
    return try decoder.frames()
  }

  private func failure(
    _ bytes: [UInt8], maximumFrameSize: Int = 1 << 20, allowsRSV1: Bool = false
  ) -> WebSocketProtocolError? {
    protocolError { () throws(WebSocketProtocolError) in
      _ = try decode(bytes, maximumFrameSize: maximumFrameSize, allowsRSV1: allowsRSV1)
    }
  }

  @Test func readsTheUnmaskedHelloOfSectionFiveSeven() throws {
    let frames = try decode([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    #expect(frames == [WebSocketFrame(opcode: .text, payload: Data(hello))])
  }

  @Test func readsTheFragmentedHelloOfSectionFiveSeven() throws {
    let frames = try decode([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F])
    #expect(
      frames == [
        WebSocketFrame(fin: false, opcode: .text, payload: Data("Hel".utf8)),
        WebSocketFrame(opcode: .continuation, payload: Data("lo".utf8)),
      ])
  }

  @Test func readsThePingOfSectionFiveSeven() throws {
    let frames = try decode([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    #expect(frames == [WebSocketFrame(opcode: .ping, payload: Data(hello))])
  }

  @Test func readsThe256ByteBinaryFrameOfSectionFiveSeven() throws {
    let payload = (0..<256).map { UInt8($0) }
    let frames = try decode([0x82, 0x7E, 0x01, 0x00] + payload)
    #expect(frames == [WebSocketFrame(opcode: .binary, payload: Data(payload))])
  }

  @Test func readsThe64KiBBinaryFrameOfSectionFiveSeven() throws {
    let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let frames = try decode([0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00] + payload)
    #expect(frames == [WebSocketFrame(opcode: .binary, payload: Data(payload))])
  }

  @Test func readsAnEmptyFrameAndALengthGivenInALongerFormThanNeeded() throws {
    let frames = try decode(
      ServerFrameBytes.frame(0x2, []) + ServerFrameBytes.frame(0x2, [9], lengthBytes: 8))
    #expect(frames.map(\.payload) == [Data(), Data([9])])
  }

  /// Several frames in one stream: a message in two fragments with a ping between them, a pong, a
  /// 300-byte binary frame and a close.
  private var stream: [UInt8] {
    ServerFrameBytes.text("Hel", fin: false) + ServerFrameBytes.frame(0x9, [1, 2])
      + ServerFrameBytes.frame(0x0, Array("lo".utf8)) + ServerFrameBytes.frame(0xA, [])
      + ServerFrameBytes.frame(0x2, (0..<300).map { UInt8(truncatingIfNeeded: $0) })
      + ServerFrameBytes.frame(0x8, [0x03, 0xE8])
  }

  @Test func readsSeveralFramesFromOneSlice() throws {
    let frames = try decode(stream)
    #expect(frames.map(\.opcode) == [.text, .ping, .continuation, .pong, .binary, .close])
    #expect(frames.map(\.fin) == [false, true, true, true, true, true])
    #expect(frames[4].payload.count == 300)
  }

  @Test func readsTheSameFramesWhateverByteTheStreamIsSplitAt() throws {
    let expected = try decode(stream)
    for split in 0...stream.count {
      var decoder = WebSocketFrameDecoder(maximumFrameSize: 1 << 20)
      decoder.append(stream[..<split])
      var frames = try decoder.frames()
      decoder.append(stream[split...])
      frames += try decoder.frames()
      #expect(frames == expected, "split at \(split)")
      #expect(decoder.bufferedByteCount == 0)
    }
  }

  @Test func readsTheSameFramesFedOneByteAtATime() throws {
    var decoder = WebSocketFrameDecoder(maximumFrameSize: 1 << 20)
    var frames: [WebSocketFrame] = []
    for byte in stream {
      decoder.append(CollectionOfOne(byte))
      frames += try decoder.frames()
    }
    #expect(frames == (try decode(stream)))
  }

  @Test func waitsForTheRestOfAFrame() throws {
    var decoder = WebSocketFrameDecoder(maximumFrameSize: 1 << 20)
    decoder.append([0x81, 0x05, 0x48, 0x65])
    #expect(try decoder.nextFrame() == nil)
    #expect(decoder.bufferedByteCount == 4)
    decoder.append([0x6C, 0x6C, 0x6F, 0x89])
    #expect(try decoder.nextFrame() == WebSocketFrame(opcode: .text, payload: Data(hello)))
    #expect(try decoder.nextFrame() == nil)
    #expect(decoder.bufferedByteCount == 1)
  }

  // MARK: Failures

  @Test func aMaskedServerFrameFailsWith1002AsSoonAsItsSecondByteArrives() {
    let error = failure([0x81, 0x85])
    #expect(error == .maskedFrame)
    #expect(error?.closeCode == .protocolError)
    #expect(error?.description == "the server sent a masked frame")
    #expect(
      failure([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == .maskedFrame)
  }

  @Test func rsv1FailsWith1002UnlessAnExtensionAllowsIt() throws {
    let compressed = ServerFrameBytes.frame(0x1, [0xF2, 0x48, 0x05, 0x00], rsv: 0b100)
    #expect(failure(compressed) == .reservedBitSet(1))
    #expect(failure(compressed)?.closeCode == .protocolError)
    let frames = try decode(compressed, allowsRSV1: true)
    #expect(frames.first?.rsv1 == true)
  }

  @Test(arguments: [(UInt8(0b010), 2), (0b001, 3), (0b011, 2)])
  func rsv2AndRsv3FailWith1002EvenWhenRSV1IsAllowed(rsv: UInt8, bit: Int) {
    let error = failure(ServerFrameBytes.frame(0x2, [1], rsv: rsv), allowsRSV1: true)
    #expect(error == .reservedBitSet(bit))
    #expect(error?.closeCode == .protocolError)
  }

  @Test(arguments: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
  func aReservedOpcodeFailsWith1002FromTheFirstByte(opcode: UInt8) {
    let error = failure([0x80 | opcode])
    #expect(error == .unknownOpcode(opcode))
    #expect(error?.closeCode == .protocolError)
  }

  @Test(arguments: [(UInt8(0x8), WebSocketOpcode.close), (0x9, .ping), (0xA, .pong)])
  func aFragmentedControlFrameFailsWith1002(opcode: UInt8, expected: WebSocketOpcode) {
    let error = failure(ServerFrameBytes.frame(opcode, [1], fin: false))
    #expect(error == .fragmentedControlFrame(expected))
    #expect(error?.closeCode == .protocolError)
  }

  @Test func aControlFrameOf125BytesPassesAndOf126FailsWith1002BeforeItsPayload() throws {
    let frames = try decode(ServerFrameBytes.frame(0x9, Array(repeating: 7, count: 125)))
    #expect(frames.first?.payload.count == 125)
    let error = failure([0x89, 0x7E])
    #expect(error == .controlFrameTooLong(.ping))
    #expect(error?.closeCode == .protocolError)
    #expect(failure([0x88, 0x7F]) == .controlFrameTooLong(.close))
    #expect(
      failure(ServerFrameBytes.frame(0xA, [1], lengthBytes: 2)) == .controlFrameTooLong(.pong))
  }

  @Test func a64BitLengthWithItsTopBitSetFailsWith1002() {
    let error = failure([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0])
    #expect(error == .lengthOutOfRange)
    #expect(error?.closeCode == .protocolError)
  }

  @Test func aFrameOverTheLimitFailsWith1009FromItsHeaderAlone() {
    var decoder = WebSocketFrameDecoder(maximumFrameSize: 1000)
    // The header announces 1001 bytes; none of them has arrived.
    decoder.append([0x82, 0x7E, 0x03, 0xE9])
    let error = protocolError { () throws(WebSocketProtocolError) in _ = try decoder.nextFrame() }
    #expect(error == .frameTooBig(length: 1001, limit: 1000))
    #expect(error?.closeCode == .messageTooBig)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func aFrameAtTheLimitPasses() throws {
    let frames = try decode(
      ServerFrameBytes.frame(0x2, Array(repeating: 1, count: 1000)), maximumFrameSize: 1000)
    #expect(frames.first?.payload.count == 1000)
  }

  @Test func aHugeAnnouncedLengthFailsWith1009WithoutAllocatingIt() {
    let error = failure([0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    #expect(error == .frameTooBig(length: UInt64(Int64.max), limit: 1 << 20))
  }

  @Test func framesBeforeABrokenOneAreDeliveredAndTheFailureStays() throws {
    var decoder = WebSocketFrameDecoder(maximumFrameSize: 100)
    decoder.append(ServerFrameBytes.text("ok") + [0x83, 0x00])
    #expect(try decoder.nextFrame()?.payload == Data("ok".utf8))
    for _ in 0..<2 {
      let error = protocolError { () throws(WebSocketProtocolError) in _ = try decoder.nextFrame() }
      #expect(error == .unknownOpcode(3))
      decoder.append(ServerFrameBytes.text("more"))
    }
  }

  /// Seeded random streams, half of them made of plausible headers: decoding never crashes, and
  /// cutting the stream anywhere changes neither the frames nor the failure.
  @Test func randomBytesDecodeAlikeWholeAndInPieces() {
    var random = SplitMix64(seed: 6455)
    for round in 0..<300 {
      var bytes: [UInt8] = []
      let frameCount = Int.random(in: 1...6, using: &random)
      for _ in 0..<frameCount {
        if Bool.random(using: &random) {
          let opcode = [0x0, 0x1, 0x2, 0x8, 0x9, 0xA, 0x3].randomElement(using: &random)!
          let length = Int.random(in: 0...140, using: &random)
          let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
          bytes += ServerFrameBytes.frame(UInt8(opcode), payload, fin: Bool.random(using: &random))
        } else {
          bytes += (0..<Int.random(in: 1...12, using: &random)).map { _ in
            UInt8.random(in: 0...255, using: &random)
          }
        }
      }
      let whole = outcome(of: [bytes[...]])
      var pieces: [ArraySlice<UInt8>] = []
      var index = 0
      while index < bytes.count {
        let end = min(bytes.count, index + Int.random(in: 1...9, using: &random))
        pieces.append(bytes[index..<end])
        index = end
      }
      #expect(outcome(of: pieces) == whole, "round \(round)")
    }
  }

  private struct Outcome: Equatable {
    var frames: [WebSocketFrame] = []
    var error: WebSocketProtocolError?
  }

  private func outcome(of pieces: [ArraySlice<UInt8>]) -> Outcome {
    var decoder = WebSocketFrameDecoder(maximumFrameSize: 100, allowsRSV1: true)
    var outcome = Outcome()
    for piece in pieces {
      decoder.append(piece)
      do {
        while let frame = try decoder.nextFrame() { outcome.frames.append(frame) }
      } catch {
        outcome.error = error
        return outcome
      }
    }
    return outcome
  }
}
