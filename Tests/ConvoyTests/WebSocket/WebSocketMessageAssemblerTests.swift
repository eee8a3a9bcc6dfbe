import Foundation
import Testing

@testable import Convoy

/// RFC 6455 §5.4-§5.6 and RFC 7692 §6 for frames turned into messages: fragments, interleaved
/// control frames, limits, UTF-8 across fragments, close payloads and compressed messages.
@Suite struct WebSocketMessageAssemblerTests {
  private typealias Output = WebSocketMessageAssembler.Output

  private func frame(
    _ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool = true, rsv1: Bool = false
  ) -> WebSocketFrame {
    WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, payload: Data(bytes))
  }

  private func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> WebSocketFrame
  {
    frame(opcode, Array(text.utf8), fin: fin)
  }

  /// What each frame gave, stopping at the first error.
  private func outputs(
    _ frames: [WebSocketFrame], maximumMessageSize: Int = 1 << 20,
    inflater: (any WebSocketMessageInflating)? = nil
  ) -> (outputs: [Output?], error: WebSocketProtocolError?) {
    var assembler = WebSocketMessageAssembler(
      maximumMessageSize: maximumMessageSize, inflater: inflater)
    var outputs: [Output?] = []
    for frame in frames {
      do {
        outputs.append(try assembler.receive(frame))
      } catch {
        return (outputs, error)
      }
    }
    return (outputs, nil)
  }

  @Test func aSingleFrameIsAMessage() {
    let result = outputs([frame(.text, "Hello"), frame(.binary, [1, 2, 3])])
    #expect(result.outputs == [.text("Hello"), .binary(Data([1, 2, 3]))])
    #expect(result.error == nil)
  }

  @Test func theFragmentedHelloOfSectionFiveSevenIsOneMessage() {
    let result = outputs([frame(.text, "Hel", fin: false), frame(.continuation, "lo")])
    #expect(result.outputs == [nil, .text("Hello")])
  }

  @Test func aBinaryMessageOfThreeFragmentsKeepsTheirOrder() {
    let result = outputs([
      frame(.binary, [1], fin: false), frame(.continuation, [2, 3], fin: false),
      frame(.continuation, [4]),
    ])
    #expect(result.outputs == [nil, nil, .binary(Data([1, 2, 3, 4]))])
  }

  @Test func controlFramesBetweenFragmentsAreReturnedAtOnce() {
    let result = outputs([
      frame(.text, "Hel", fin: false), frame(.ping, "Hello"), frame(.continuation, [], fin: false),
      frame(.pong, []), frame(.continuation, "lo"),
    ])
    #expect(
      result.outputs == [nil, .ping(Data("Hello".utf8)), nil, .pong(Data()), .text("Hello")])
    #expect(result.error == nil)
  }

  @Test func aContinuationWithoutAMessageFailsWith1002() {
    let result = outputs([frame(.text, "done"), frame(.continuation, "more")])
    #expect(result.outputs == [.text("done")])
    #expect(result.error == .continuationWithoutMessage)
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test(arguments: [WebSocketOpcode.text, .binary])
  func aNewMessageBeforeTheLastIsFinishedFailsWith1002(opcode: WebSocketOpcode) {
    let result = outputs([frame(.binary, [1], fin: false), frame(opcode, [2])])
    #expect(result.error == .messageInterrupted(by: opcode))
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test func aMessageOverTheLimitFailsWith1009AtTheFragmentThatPassesIt() {
    let result = outputs(
      [frame(.binary, [1, 2, 3, 4, 5, 6], fin: false), frame(.continuation, [7, 8, 9, 10, 11])],
      maximumMessageSize: 10)
    #expect(result.outputs == [nil])
    #expect(result.error == .messageTooBig(limit: 10))
    #expect(result.error?.closeCode == .messageTooBig)
    #expect(outputs([frame(.text, "elevenbytes")], maximumMessageSize: 10).error != nil)
  }

  @Test func aMessageAtTheLimitPassesAndTheNextStartsFromZero() {
    let result = outputs(
      [
        frame(.text, "12345", fin: false), frame(.continuation, "67890"),
        frame(.text, "abcdefghij"),
      ],
      maximumMessageSize: 10)
    #expect(result.outputs == [nil, .text("1234567890"), .text("abcdefghij")])
  }

  @Test func aFailureStaysForEveryLaterFrame() {
    var assembler = WebSocketMessageAssembler(maximumMessageSize: 100)
    for _ in 0..<2 {
      let error = protocolError { () throws(WebSocketProtocolError) in
        _ = try assembler.receive(frame(.continuation, "x"))
      }
      #expect(error == .continuationWithoutMessage)
    }
    let error = protocolError { () throws(WebSocketProtocolError) in
      _ = try assembler.receive(frame(.text, "fine"))
    }
    #expect(error == .continuationWithoutMessage)
  }

  // MARK: UTF-8

  @Test func aFourByteCharacterIsValidText() {
    #expect(outputs([frame(.text, [0xF0, 0x9F, 0x98, 0x80])]).outputs == [.text("😀")])
    #expect(outputs([frame(.text, [0xF4, 0x8F, 0xBF, 0xBF])]).outputs == [.text("\u{10FFFF}")])
  }

  @Test func aCharacterSplitAcrossFragmentsIsValidText() {
    let result = outputs([
      frame(.text, [0x61, 0xF0, 0x9F], fin: false), frame(.continuation, [0x98], fin: false),
      frame(.continuation, [0x80, 0x62]),
    ])
    #expect(result.outputs == [nil, nil, .text("a😀b")])
  }

  @Test(
    arguments: [
      [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong "/"
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],  // above U+10FFFF
      [0x80], [0xFF],
    ] as [[UInt8]])
  func invalidUTF8FailsWith1007(bytes: [UInt8]) {
    let result = outputs([frame(.text, [0x61] + bytes + [0x62])])
    #expect(result.error == .invalidUTF8)
    #expect(result.error?.closeCode == .invalidPayload)
  }

  @Test func invalidUTF8FailsAtTheFragmentThatHoldsItNotAtTheEnd() {
    let result = outputs([
      frame(.text, "fine", fin: false), frame(.continuation, [0xED, 0xA0], fin: false),
      frame(.continuation, "never reached"),
    ])
    #expect(result.outputs == [nil])
    #expect(result.error == .invalidUTF8)
  }

  @Test func aSequenceCutAtTheEndOfTheFinalFragmentFailsWith1007() {
    let result = outputs([
      frame(.text, "ab", fin: false), frame(.continuation, [0x63, 0xF0, 0x9F, 0x98]),
    ])
    #expect(result.outputs == [nil])
    #expect(result.error == .invalidUTF8)
    #expect(result.error?.closeCode == .invalidPayload)
  }

  @Test func binaryMessagesAreNotCheckedAsUTF8() {
    #expect(
      outputs([frame(.binary, [0xED, 0xA0, 0x80, 0xF0])]).outputs == [
        .binary(Data([0xED, 0xA0, 0x80, 0xF0]))
      ])
  }

  @Test func aFailedTextMessageDoesNotLeakItsStateIntoTheNext() {
    // A text message ending inside a character, then a fresh one: the second starts clean.
    let result = outputs([
      frame(.text, [0xE2, 0x82], fin: false), frame(.continuation, [0xAC]), frame(.text, "x"),
    ])
    #expect(result.outputs == [nil, .text("€"), .text("x")])
  }

  // MARK: Close

  @Test func anEmptyCloseHasNoCode() {
    #expect(outputs([frame(.close, [])]).outputs == [.close(code: nil, reason: "")])
  }

  @Test func aCloseCarriesItsCodeAndReason() {
    let result = outputs([frame(.close, [0x03, 0xE8] + Array("bye ✓".utf8))])
    #expect(result.outputs == [.close(code: .normalClosure, reason: "bye ✓")])
  }

  @Test func aOneByteCloseFailsWith1002() {
    let result = outputs([frame(.close, [0x03])])
    #expect(result.error == .closePayloadTooShort)
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test(
    arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535] as [UInt16])
  func aCloseCodeThatMayNotBeSentFailsWith1002(code: UInt16) {
    let result = outputs([frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])])
    #expect(result.error == .closeCodeNotAllowed(code))
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test(
    arguments: [
      1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000,
      4999,
    ]
      as [UInt16])
  func aCloseCodeThatMayBeSentIsReturned(code: UInt16) {
    let result = outputs([frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])])
    #expect(result.outputs == [.close(code: WebSocketCloseCode(rawValue: code), reason: "")])
  }

  @Test func aCloseReasonThatIsNotUTF8FailsWith1007() {
    let result = outputs([frame(.close, [0x03, 0xE8, 0x61, 0xED, 0xA0, 0x80])])
    #expect(result.error == .invalidCloseReason)
    #expect(result.error?.closeCode == .invalidPayload)
    #expect(outputs([frame(.close, [0x03, 0xE8, 0x61, 0xE2, 0x82])]).error == .invalidCloseReason)
  }

  // MARK: Compression

  @Test func aCompressedMessageWithoutNegotiatedCompressionFailsWith1002() {
    let result = outputs([frame(.text, [1, 2], rsv1: true)])
    #expect(result.error == .compressionNotNegotiated)
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test func rsv1OnAContinuationFailsWith1002() {
    let result = outputs(
      [frame(.binary, [1], fin: false, rsv1: true), frame(.continuation, [2], rsv1: true)],
      inflater: ScriptedInflater { $0 })
    #expect(result.error == .compressedContinuation)
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test(arguments: [WebSocketOpcode.ping, .pong, .close])
  func rsv1OnAControlFrameFailsWith1002(opcode: WebSocketOpcode) {
    let result = outputs([frame(opcode, [], rsv1: true)], inflater: ScriptedInflater { $0 })
    #expect(result.error == .compressedControlFrame(opcode))
    #expect(result.error?.closeCode == .protocolError)
  }

  @Test func aCompressedMessageIsInflatedOnceWithAllItsFragmentsAndTheLimit() {
    let inflater = ScriptedInflater(expectedLimit: 64) { compressed in
      Data("inflated:".utf8) + compressed
    }
    let result = outputs(
      [
        frame(.text, Array("ab".utf8), fin: false, rsv1: true), frame(.ping, []),
        frame(.continuation, Array("cd".utf8)), frame(.text, "plain"),
      ], maximumMessageSize: 64, inflater: inflater)
    #expect(result.outputs == [nil, .ping(Data()), .text("inflated:abcd"), .text("plain")])
    #expect(result.error == nil)
  }

  @Test func aCompressedTextThatInflatesToInvalidUTF8FailsWith1007() {
    let result = outputs(
      [frame(.text, [1], rsv1: true)], inflater: ScriptedInflater { _ in Data([0x61, 0xF0, 0x9F]) })
    #expect(result.error == .invalidUTF8)
  }

  @Test func anInflaterThatFailsFailsWith1007() {
    struct Corrupt: Error {}
    let result = outputs(
      [frame(.binary, [1], rsv1: true)], inflater: ScriptedInflater { _ in throw Corrupt() })
    #expect(result.error == .inflationFailed)
    #expect(result.error?.closeCode == .invalidPayload)
  }

  @Test func anInflaterPastTheLimitFailsWith1009() {
    let refusing = ScriptedInflater { _ in throw WebSocketProtocolError.messageTooBig(limit: 8) }
    #expect(
      outputs([frame(.binary, [1], rsv1: true)], maximumMessageSize: 8, inflater: refusing).error
        == .messageTooBig(limit: 8))
    // An inflater that ignores the limit is held to it all the same.
    let overshooting = ScriptedInflater { _ in Data(count: 9) }
    let result = outputs(
      [frame(.binary, [1], rsv1: true)], maximumMessageSize: 8, inflater: overshooting)
    #expect(result.error == .messageTooBig(limit: 8))
    #expect(result.error?.closeCode == .messageTooBig)
  }
}

/// An inflater whose answer the test gives; it fails the message if asked with another limit.
private struct ScriptedInflater: WebSocketMessageInflating {
  struct WrongLimit: Error {}
  var expectedLimit: Int?
  var answer: @Sendable (Data) throws -> Data

  init(expectedLimit: Int? = nil, answer: @escaping @Sendable (Data) throws -> Data) {
    self.expectedLimit = expectedLimit
    self.answer = answer
  }

  mutating func inflate(_ compressed: Data, limit: Int) throws -> Data {
    if let expectedLimit, limit != expectedLimit { throw WrongLimit() }
    return try answer(compressed)
  }
}
