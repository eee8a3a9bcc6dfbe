import Foundation
import Testing

@testable import Convoy

/// Compression as RFC 7692 §7.2.1 describes it, checked against the RFC's own bytes.
@Suite struct MessageDeflaterTests {
  let zlib: ZlibLibrary

  init() throws {
    zlib = try ZlibLibrary.shared.get()
  }

  func deflater(
    windowBits: Int = 15, noContextTakeover: Bool = false
  ) throws -> MessageDeflater {
    try MessageDeflater(
      zlib: zlib, maximumWindowBits: windowBits, noContextTakeover: noContextTakeover)
  }

  /// RFC 7692 §7.2.3.1.
  @Test func compressesHelloToTheRFCsBytes() throws {
    let payload = try deflater().deflate(Data("Hello".utf8))
    #expect(payload == Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]))
  }

  /// RFC 7692 §7.2.3.2: the second "Hello" is a reference into the first.
  @Test func keepsTheContextSoARepeatedMessageShrinks() throws {
    let deflater = try deflater()
    _ = try deflater.deflate(Data("Hello".utf8))
    #expect(try deflater.deflate(Data("Hello".utf8)) == Data([0xF2, 0x00, 0x11, 0x00, 0x00]))
  }

  /// RFC 7692 §7.2.3.2's first half again, with `client_no_context_takeover`: each message stands
  /// alone.
  @Test func withoutContextTakeoverEveryMessageStartsAfresh() throws {
    let deflater = try deflater(noContextTakeover: true)
    for _ in 0..<3 {
      #expect(
        try deflater.deflate(Data("Hello".utf8))
          == Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]))
    }
  }

  @Test func anEmptyMessageIsAnEmptyStoredBlockWithOrWithoutContext() throws {
    let deflater = try deflater()
    #expect(try deflater.deflate(Data()) == Data([0x00]))
    _ = try deflater.deflate(Data("Hello".utf8))
    #expect(try deflater.deflate(Data()) == Data([0x00]))
    // The context survives the empty message: "Hello" is still a back-reference.
    #expect(try deflater.deflate(Data("Hello".utf8)) == Data([0xF2, 0x00, 0x11, 0x00, 0x00]))
  }

  @Test func neverEndsAPayloadWithTheSyncFlushMarker() throws {
    let deflater = try deflater()
    for size in [1, 100, 70_000] {
      let payload = try deflater.deflate(DeflateTestData.random(count: size, seed: UInt64(size)))
      #expect(!payload.isEmpty)
      #expect(payload.suffix(4) != Data([0x00, 0x00, 0xFF, 0xFF]), "\(size)")
    }
  }

  @Test func aRandomMessageGrowsByLittleMoreThanItsStoredBlockHeaders() throws {
    let message = DeflateTestData.random(count: 1 << 20, seed: 7)
    let payload = try deflater().deflate(message)
    #expect(payload.count > message.count)
    #expect(payload.count < message.count + message.count / 1000 + 64)
  }

  @Test func compressesRepetitiveTextToAFractionOfItsSize() throws {
    let message = DeflateTestData.text(count: 64 * 1024, seed: 3)
    #expect(try deflater().deflate(message).count < message.count / 4)
  }

  @Test func compressesOnlyMessagesOfAtLeastTheMinimumSize() throws {
    let standard = try deflater()
    #expect(standard.minimumMessageSize == 64)
    #expect(!standard.shouldCompress(byteCount: 0))
    #expect(!standard.shouldCompress(byteCount: 63))
    #expect(standard.shouldCompress(byteCount: 64))
    let always = try MessageDeflater(
      zlib: zlib, maximumWindowBits: 15, noContextTakeover: false, minimumMessageSize: 0)
    #expect(always.shouldCompress(byteCount: 0))
    let parameters = PerMessageDeflateParameters(clientMaxWindowBits: 10)
    let configured = try MessageDeflater(
      zlib: zlib, parameters: parameters, minimumMessageSize: 512)
    #expect(!configured.shouldCompress(byteCount: 511))
    #expect(configured.shouldCompress(byteCount: 512))
  }

  @Test func deflatesANegotiatedEightBitWindowWithNine() throws {
    #expect(try deflater(windowBits: 8).windowBits == 9)
    #expect(try deflater(windowBits: 9).windowBits == 9)
    #expect(try deflater(windowBits: 12).windowBits == 12)
    let parameters = PerMessageDeflateParameters(clientMaxWindowBits: 8)
    #expect(try MessageDeflater(zlib: zlib, parameters: parameters).windowBits == 9)
  }

  @Test func usesTheClientHalfOfTheNegotiatedParameters() throws {
    let parameters = PerMessageDeflateParameters(
      clientNoContextTakeover: true, serverNoContextTakeover: false, clientMaxWindowBits: 11,
      serverMaxWindowBits: 15)
    let deflater = try MessageDeflater(zlib: zlib, parameters: parameters)
    #expect(deflater.windowBits == 11)
    _ = try deflater.deflate(Data("Hello".utf8))
    #expect(
      try deflater.deflate(Data("Hello".utf8)) == Data([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]))
  }
}
