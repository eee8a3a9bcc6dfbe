import Foundation
import Testing

@testable import Convoy

/// The shape the frame layer's inflating protocol asks for: a one-line conformance must do.
private protocol InflatingShape {
  func inflate(_ payload: Data, limit: Int) throws -> Data
}

extension MessageInflater: InflatingShape {}

/// ``MessageInflater``: decompression as RFC 7692 §7.2.2 describes it, bounded, and strict
/// about broken input.
@Suite struct PerMessageDeflateInflaterTests {
  let zlib: ZlibLibrary
  static let hello = Data("Hello".utf8)

  init() throws {
    zlib = try ZlibLibrary.shared.get()
  }

  func inflater(windowBits: Int = 15, noContextTakeover: Bool = false) throws -> MessageInflater {
    try MessageInflater(zlib: zlib, windowBits: windowBits, noContextTakeover: noContextTakeover)
  }

  // MARK: RFC 7692 §7.2.3

  @Test(
    arguments: [
      // §7.2.3.1: one compressed block.
      [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00],
      // §7.2.3.3: one block with no compression.
      [0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00],
      // §7.2.3.4: a block with BFINAL set.
      [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00],
      // §7.2.3.5: two blocks, "He" flushed and then "llo".
      [0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00],
    ] as [[UInt8]])
  func inflatesEachOfTheRFCsExamplesToHello(payload: [UInt8]) throws {
    #expect(try inflater().inflate(Data(payload), limit: 100) == Self.hello)
  }

  /// RFC 7692 §7.2.3.2: the second message is only a reference into the first.
  @Test func keepsTheContextSoASecondMessageCanReferToTheFirst() throws {
    let inflater = try inflater()
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
    #expect(try inflater.inflate(Data([0xF2, 0x00, 0x11, 0x00, 0x00]), limit: 5) == Self.hello)
  }

  @Test func withoutContextTakeoverAReferenceToAnEarlierMessageIsInvalid() throws {
    let inflater = try inflater(noContextTakeover: true)
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
    #expect(throws: PerMessageDeflateError.self) {
      try inflater.inflate(Data([0xF2, 0x00, 0x11, 0x00, 0x00]), limit: 5)
    }
  }

  /// After a final block zlib's stream is over; the next message starts a new one.
  @Test func goesOnAfterAMessageThatEndedWithAFinalBlock() throws {
    let inflater = try inflater()
    let final: [UInt8] = [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]
    #expect(try inflater.inflate(Data(final), limit: 5) == Self.hello)
    #expect(try inflater.inflate(Data(final), limit: 5) == Self.hello)
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
  }

  @Test func anEmptyPayloadOrAnEmptyStoredBlockIsAnEmptyMessage() throws {
    let inflater = try inflater()
    #expect(try inflater.inflate(Data(), limit: 0) == Data())
    #expect(try inflater.inflate(Data([0x00]), limit: 0) == Data())
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
    #expect(try inflater.inflate(Data([0xF2, 0x00, 0x11, 0x00, 0x00]), limit: 5) == Self.hello)
  }

  // MARK: Round trips

  @Test(arguments: [0, 1, 2, 63, 64, 1000, 16_384, 65_536, 1 << 20])
  func randomMessagesOfEverySizeComeBackWhole(size: Int) throws {
    let deflater = try MessageDeflater(zlib: zlib, maximumWindowBits: 15, noContextTakeover: false)
    let inflater = try inflater()
    for seed in 1...2 {
      let message = DeflateTestData.random(count: size, seed: UInt64(size * 10 + seed))
      let payload = try deflater.deflate(message)
      #expect(try inflater.inflate(payload, limit: size) == message)
    }
  }

  @Test(arguments: [false, true])
  func aConversationOfMessagesComesBackWholeWithOrWithoutContext(noContextTakeover: Bool) throws {
    let deflater = try MessageDeflater(
      zlib: zlib, maximumWindowBits: 15, noContextTakeover: noContextTakeover)
    let inflater = try inflater(noContextTakeover: noContextTakeover)
    var compressed = 0
    var total = 0
    for index in 0..<40 {
      let message = DeflateTestData.text(count: 200 + index * 37, seed: UInt64(index % 3))
      let payload = try deflater.deflate(message)
      #expect(try inflater.inflate(payload, limit: message.count) == message, "\(index)")
      compressed += payload.count
      total += message.count
    }
    #expect(compressed < total / 2)
  }

  @Test(arguments: 8...15)
  func everyWindowSizeRoundTrips(windowBits: Int) throws {
    let deflater = try MessageDeflater(
      zlib: zlib, maximumWindowBits: windowBits, noContextTakeover: false)
    let inflater = try inflater(windowBits: windowBits)
    // Repeats farther apart than the smallest windows, so that those must not reach back.
    let block = DeflateTestData.random(count: 700, seed: 11)
    let message = block + DeflateTestData.text(count: 5000, seed: 2) + block
    for _ in 0..<3 {
      #expect(try inflater.inflate(try deflater.deflate(message), limit: message.count) == message)
    }
  }

  /// zlib resolves a distance inside one call's output whatever the window, so the window
  /// shows across messages: what an earlier message left is kept only as far as the window.
  @Test func aReferenceFartherBackThanTheNegotiatedWindowIsInvalidData() throws {
    let deflater = try MessageDeflater(zlib: zlib, maximumWindowBits: 15, noContextTakeover: false)
    let block = DeflateTestData.random(count: 2000, seed: 5)
    let first = try deflater.deflate(block)
    let second = try deflater.deflate(block)
    #expect(second.count < 100)
    let small = try inflater(windowBits: 10)
    #expect(try small.inflate(first, limit: 2000) == block)
    #expect(
      throws: PerMessageDeflateError.invalidCompressedData(reason: "invalid distance too far back")
    ) {
      try small.inflate(second, limit: 2000)
    }
    let large = try inflater(windowBits: 11)
    #expect(try large.inflate(first, limit: 2000) == block)
    #expect(try large.inflate(second, limit: 2000) == block)
  }

  @Test func usesTheServerHalfOfTheNegotiatedParameters() throws {
    let parameters = PerMessageDeflateParameters(
      clientNoContextTakeover: false, serverNoContextTakeover: true, clientMaxWindowBits: 15,
      serverMaxWindowBits: 9)
    let inflater = try MessageInflater(zlib: zlib, parameters: parameters)
    #expect(inflater.windowBits == 9)
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
    #expect(throws: PerMessageDeflateError.self) {
      try inflater.inflate(Data([0xF2, 0x00, 0x11, 0x00, 0x00]), limit: 5)
    }
  }

  // MARK: Limits

  @Test func aMessageOfExactlyTheLimitPassesAndOneByteMoreFails() throws {
    let message = DeflateTestData.text(count: 10_000, seed: 1)
    let deflater = try MessageDeflater(zlib: zlib, maximumWindowBits: 15, noContextTakeover: true)
    let payload = try deflater.deflate(message)
    #expect(try inflater().inflate(payload, limit: 10_000) == message)
    #expect(throws: PerMessageDeflateError.messageTooBig(limit: 9_999)) {
      try inflater().inflate(payload, limit: 9_999)
    }
    #expect(throws: PerMessageDeflateError.messageTooBig(limit: 0)) {
      try inflater().inflate(payload, limit: 0)
    }
  }

  @Test func tenMegabytesOfZerosFailAtAOneMegabyteLimit() throws {
    let deflater = try MessageDeflater(zlib: zlib, maximumWindowBits: 15, noContextTakeover: false)
    let payload = try deflater.deflate(Data(count: 10_000_000))
    #expect(payload.count < 20_000)
    #expect(throws: PerMessageDeflateError.messageTooBig(limit: 1_000_000)) {
      try inflater().inflate(payload, limit: 1_000_000)
    }
  }

  @Test func theHandWrittenBombInflatesToWhatItClaims() throws {
    let payload = DeflateTestData.bomb(repeats: 1000)
    #expect(try inflater().inflate(payload, limit: 258_001) == Data(count: 258_001))
  }

  /// A 4 MB payload that stands for some 650 MB: refused at the limit without inflating the rest
  /// or holding it. An inflater that collected everything and checked the size afterwards would
  /// raise the process's peak memory by the full 650 MB.
  @Test func aBombStopsAtTheLimitWithoutInflatingTheRest() throws {
    let payload = DeflateTestData.bomb(repeats: 2_500_000)
    #expect(payload.count < 4_100_000)
    let peakBefore = DeflateTestData.peakResidentBytes()
    #expect(throws: PerMessageDeflateError.messageTooBig(limit: 1 << 20)) {
      try inflater().inflate(payload, limit: 1 << 20)
    }
    #if os(Linux)
      let before = try #require(peakBefore)
      let after = try #require(DeflateTestData.peakResidentBytes())
      #expect(after - before < 100 << 20, "peak memory grew by \(after - before) bytes")
    #endif
  }

  // MARK: Broken input

  @Test(
    arguments: [
      // BTYPE 11, reserved (RFC 1951 §3.2.3).
      [0x07],
      // A stored block whose NLEN is not the complement of LEN.
      [0x00, 0x05, 0x00, 0x00, 0x00, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00],
      // A fixed-Huffman block whose first symbol copies 3 bytes from distance 1: before anything.
      [0x02, 0x02, 0x00, 0x00],
      [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    ] as [[UInt8]])
  func dataThatIsNotDeflateIsInvalid(payload: [UInt8]) throws {
    let error = #expect(throws: PerMessageDeflateError.self) {
      try inflater().inflate(Data(payload), limit: 1000)
    }
    guard case .invalidCompressedData = error else {
      Issue.record("\(String(describing: error))")
      return
    }
  }

  @Test(arguments: 1...6)
  func aMessageCutShortIsInvalid(length: Int) throws {
    let payload = Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00].prefix(length))
    let error = #expect(throws: PerMessageDeflateError.self) {
      try inflater().inflate(payload, limit: 1000)
    }
    guard case .invalidCompressedData = error else {
      Issue.record("\(String(describing: error))")
      return
    }
  }

  @Test func afterAFailureTheInflaterStartsAfresh() throws {
    let inflater = try inflater()
    #expect(throws: PerMessageDeflateError.self) { try inflater.inflate(Data([0x07]), limit: 100) }
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
    let bomb = DeflateTestData.bomb(repeats: 100)
    #expect(throws: PerMessageDeflateError.messageTooBig(limit: 100)) {
      try inflater.inflate(bomb, limit: 100)
    }
    #expect(
      try inflater.inflate(Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), limit: 5) == Self.hello
    )
  }

  @Test func matchesTheFrameLayersInflatingShape() throws {
    let inflating: any InflatingShape = try inflater()
    #expect(try inflating.inflate(Data([0x00]), limit: 0) == Data())
  }
}
