import Convoy
import Foundation
import Testing

/// The parser gives the same result however the stream is cut into chunks, and keeps memory
/// bounded whatever the stream sends.
@Suite struct ServerSentEventChunkingTests {
  static let streams: [String] = [
    "\u{FEFF}: comment\r\nretry: 1200\r\nid: 7\r\nevent: update\r\ndata: héllo\r\ndata: 👋\r\n\r\n",
    "data: a\rdata: b\r\rid\rdata: c\n\r\nevent: x\n\n:\ndata:  d\r\n\ndata: lost\r",
    "data\n\ndata\ndata\n\ndata:",
    "id: 1\ndata: a\n\nid: 2\u{0}\nretry: 9x\ndata: b\r\n\r\nretry: 30\n\n",
    "\u{FEFF}\u{FEFF}data: x\n\ndata: \u{FEFF}y\r\r",
  ]

  @Test(arguments: streams.indices)
  func everyCutInTwoGivesTheSameEvents(index: Int) throws {
    let data = ChunkedBody.bytes(Self.streams[index])
    let whole = try ServerSentEventParserTests.parse([data])
    #expect(!whole.events.isEmpty)
    for chunks in ChunkedBody.twoPieces(data) {
      #expect(try ServerSentEventParserTests.parse(chunks) == whole, "\(chunks.map(\.count))")
    }
    #expect(try ServerSentEventParserTests.parse(ChunkedBody.bytewise(data)) == whole)
  }

  @Test(arguments: streams.indices)
  func everyCutInThreeGivesTheSameEvents(index: Int) throws {
    let data = ChunkedBody.bytes(Self.streams[index])
    let whole = try ServerSentEventParserTests.parse([data])
    for chunks in ChunkedBody.threePieces(data) {
      #expect(try ServerSentEventParserTests.parse(chunks) == whole, "\(chunks.map(\.count))")
    }
  }

  @Test func theWholeStreamsParseAsTheStandardSays() throws {
    let first = try ServerSentEventParserTests.parse(Self.streams[0])
    #expect(
      first.events == [ServerSentEvent(type: "update", data: "héllo\n👋", id: "7", retry: 1.2)])
    let second = try ServerSentEventParserTests.parse(Self.streams[1])
    #expect(
      second.events == [
        ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c"), ServerSentEvent(data: " d"),
      ])
    let fourth = try ServerSentEventParserTests.parse(Self.streams[3])
    #expect(
      fourth.events == [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")])
    #expect(fourth.reconnectionDelay == 0.03)
    let fifth = try ServerSentEventParserTests.parse(Self.streams[4])
    #expect(fifth.events == [ServerSentEvent(data: "\u{FEFF}y")])
  }

  // MARK: Limits

  @Test func anEventAtTheLimitIsAccepted() throws {
    // The line "data: 0123456789" is 16 bytes; then the data (11 bytes) and the blank line.
    let parser = ServerSentEventParser(maximumEventSize: 16)
    let parsed = try ServerSentEventParserTests.parse(
      [ChunkedBody.bytes("data: 0123456789\n\n")], parser: parser)
    #expect(parsed.events == [ServerSentEvent(data: "0123456789")])
  }

  @Test func aLineOverTheLimitThrows() {
    var parser = ServerSentEventParser(maximumEventSize: 16)
    #expect(throws: StreamFormatError.eventTooLarge(limit: 16)) {
      try parser.events(in: ChunkedBody.bytes("data: 0123456789A"))
    }
  }

  @Test func dataAddingUpPastTheLimitThrows() {
    var parser = ServerSentEventParser(maximumEventSize: 32)
    #expect(throws: StreamFormatError.eventTooLarge(limit: 32)) {
      try parser.events(in: ChunkedBody.bytes("data: 0123456789\ndata: 0123456789\ndata: 01234"))
    }
  }

  @Test func eventsBeforeATooLargeOneInTheSameChunkAreReturnedFirst() throws {
    var parser = ServerSentEventParser(maximumEventSize: 16)
    let chunk = ChunkedBody.bytes("data: a\n\ndata: b\n\ndata: 0123456789AB\n\n")
    #expect(
      try parser.events(in: chunk) == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    #expect(parser.failure == .eventTooLarge(limit: 16))
    #expect(throws: StreamFormatError.eventTooLarge(limit: 16)) {
      try parser.events(in: ChunkedBody.bytes("data: c\n\n"))
    }
    parser.finish()
    #expect(try parser.events(in: ChunkedBody.bytes("data: c\n\n")) == [ServerSentEvent(data: "c")])
  }

  @Test func theEventsBeforeAnErrorDoNotDependOnTheChunks() {
    let data = ChunkedBody.bytes("data: a\r\rdata: b\n\ndata: 0123456789AB\n\n")
    for chunks in ChunkedBody.twoPieces(data) {
      var parser = ServerSentEventParser(maximumEventSize: 16)
      var events: [ServerSentEvent] = []
      #expect(throws: StreamFormatError.eventTooLarge(limit: 16)) {
        for chunk in chunks { events += try parser.events(in: chunk) }
        if let failure = parser.failure { throw failure }
      }
      #expect(events == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    }
  }

  @Test func eachEventHasTheWholeLimit() throws {
    var parser = ServerSentEventParser(maximumEventSize: 32)
    let stream = String(repeating: "data: 0123456789\n\n", count: 1_000)
    let events = try parser.events(in: ChunkedBody.bytes(stream))
    #expect(events.count == 1_000)
  }

  @Test func anEndlessCommentIsRejected() throws {
    var parser = ServerSentEventParser(maximumEventSize: 100_000)
    let block = Data([UInt8(ascii: ":")] + Array(repeating: UInt8(ascii: "x"), count: 64 * 1024))
    #expect(try parser.events(in: block) == [])
    #expect(throws: StreamFormatError.eventTooLarge(limit: 100_000)) {
      try parser.events(in: block)
    }
  }

  @Test func aHugeChunkIsRejectedWithoutBeingKept() {
    var parser = ServerSentEventParser(maximumEventSize: 1024)
    var huge = ChunkedBody.bytes("data: ")
    huge.append(Data(repeating: UInt8(ascii: "x"), count: 8 << 20))
    #expect(throws: StreamFormatError.eventTooLarge(limit: 1024)) {
      try parser.events(in: huge)
    }
  }

  @Test func aBigEventUnderTheDefaultLimitIsRead() throws {
    var parser = ServerSentEventParser()
    let line = String(repeating: "x", count: 1 << 20)
    let stream = String(repeating: "data: \(line)\n", count: 4) + "\n"
    let events = try parser.events(in: ChunkedBody.bytes(stream))
    #expect(events.first?.data.utf8.count == 4 * (1 << 20) + 3)
  }
}
