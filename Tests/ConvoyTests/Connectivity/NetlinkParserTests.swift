import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct NetlinkParserTests {
  typealias B = NetlinkBytes

  @Test func readsALinkARouteAndTheEndOfADump() throws {
    let bytes =
      B.message(type: 16, payload: B.link(index: 2, flags: B.up))
      + B.message(
        type: 24,
        payload: B.route(
          family: 10, destinationLength: 64,
          attributes: [
            B.destination([0xfd] + [UInt8](repeating: 0, count: 15)), B.outputInterface(2),
            B.attribute(6, B.le(UInt32(256))), B.attribute(15, B.le(UInt32(254))),
          ]))
      + B.message(type: 3, sequence: 7, payload: B.le(Int32(0)))
    let messages = try #require(NetlinkParser.messages(in: bytes))
    #expect(messages.count == 3)
    #expect(messages[0] == .link(NetlinkLink(index: 2, flags: B.up)))
    guard case .route(let route) = messages[1] else {
      Issue.record("expected a route, got \(messages[1])")
      return
    }
    #expect(route.family == 10)
    #expect(route.destinationLength == 64)
    #expect(route.destination.first == 0xfd)
    #expect(route.interfaces == [2])
    #expect(route.priority == 256)
    #expect(route.table == 254)
    #expect(messages[2] == .done(sequence: 7))
  }

  @Test func readsEveryNextHopOfAMultipathRoute() throws {
    let bytes = B.message(type: 24, payload: B.route(attributes: [B.multipath([3, 4])]))
    let messages = try #require(NetlinkParser.messages(in: bytes))
    guard case .route(let route) = messages.first else {
      Issue.record("expected a route, got \(messages)")
      return
    }
    #expect(route.interfaces == [3, 4])
  }

  @Test func readsRemovalsErrorsAndLostTrack() throws {
    let bytes =
      B.message(type: 17, payload: B.link(index: 5, flags: 0))
      + B.message(
        type: 2, sequence: 9, payload: B.le(Int32(-16)) + [UInt8](repeating: 0, count: 16))
      + B.message(type: 4, payload: [])
      + B.message(type: 16, flags: 0x10, payload: B.link(index: 1, flags: 0))
      + B.message(type: 20, payload: [1, 2, 3, 4])
    let messages = try #require(NetlinkParser.messages(in: bytes))
    #expect(
      messages == [
        .linkRemoved(index: 5), .error(sequence: 9, code: -16), .lostTrack,
        .link(NetlinkLink(index: 1, flags: 0)), .lostTrack, .ignored,
      ])
  }

  @Test func refusesImpossibleLengths() {
    let link = B.message(type: 16, payload: B.link(index: 2, flags: B.up))
    var tooLong = link
    tooLong[0] = UInt8(link.count + 4)
    var tooShort = link
    tooShort[0] = 8
    let cases: [[UInt8]] = [
      Array(link.prefix(10)),  // a header cut short
      tooLong,  // a message longer than the buffer
      tooShort,  // a message shorter than its header
      B.message(type: 16, payload: [0, 0, 0, 0]),  // a link without its ifinfomsg
      B.message(type: 24, payload: [2, 0, 0]),  // a route without its rtmsg
      B.message(type: 2, payload: [0, 0]),  // an error without its code
      // An attribute longer than the route, one shorter than its own header, an interface
      // index of two bytes, a next hop cut short.
      B.message(type: 24, payload: B.route() + B.le(UInt16(40)) + B.le(UInt16(4)) + [1, 2, 3, 4]),
      B.message(type: 24, payload: B.route() + B.le(UInt16(2)) + B.le(UInt16(4))),
      B.message(type: 24, payload: B.route(attributes: [B.attribute(4, [1, 0])])),
      B.message(type: 24, payload: B.route(attributes: [B.attribute(9, [16, 0, 0, 0, 1, 0])])),
    ]
    for bytes in cases {
      #expect(NetlinkParser.messages(in: bytes) == nil, "\(bytes)")
    }
  }

  @Test func everyCutOfAValidBufferIsReadOrRefusedNeverCrashes() {
    let bytes =
      B.message(type: 16, payload: B.link(index: 2, flags: B.up))
      + B.message(
        type: 24, payload: B.route(attributes: [B.outputInterface(2), B.multipath([2, 3])]))
    for length in 0...bytes.count {
      let messages = NetlinkParser.messages(in: Array(bytes.prefix(length)))
      if let messages { #expect(messages.count <= 2) }
    }
  }

  @Test func garbageNeverCrashesTheParser() {
    var generator = SplitMix(seed: 39)
    for _ in 0..<5_000 {
      let count = Int(generator.next() % 96)
      var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      // Plausible headers reach the payload readers more often than random lengths would.
      if count >= 16, generator.next() % 2 == 0 {
        bytes.replaceSubrange(0..<4, with: B.le(UInt32(count)))
        bytes.replaceSubrange(
          4..<6, with: B.le(UInt16([16, 17, 24, 25, 2, 3][Int(generator.next() % 6)])))
      }
      _ = NetlinkParser.messages(in: bytes)
    }
  }
}

/// A small seeded generator, so that the garbage is the same every run.
private struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
