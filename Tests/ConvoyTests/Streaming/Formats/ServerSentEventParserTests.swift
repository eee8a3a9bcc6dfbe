import Convoy
import Foundation
import Testing

/// The WHATWG HTML standard's event stream rules, one by one, with the standard's own examples.
@Suite struct ServerSentEventParserTests {
  /// What a whole stream leaves behind: its events and the parser's state once it ended.
  struct Parsed: Equatable {
    var events: [ServerSentEvent]
    var lastEventID: String
    var reconnectionDelay: TimeInterval?
  }

  static func parse(
    _ chunks: [Data], parser: ServerSentEventParser = ServerSentEventParser()
  ) throws(StreamFormatError) -> Parsed {
    var parser = parser
    var events: [ServerSentEvent] = []
    for chunk in chunks { events += try parser.events(in: chunk) }
    parser.finish()
    return Parsed(
      events: events, lastEventID: parser.lastEventID,
      reconnectionDelay: parser.reconnectionDelay)
  }

  static func parse(_ text: String) throws(StreamFormatError) -> Parsed {
    try parse([ChunkedBody.bytes(text)])
  }

  static func events(_ text: String) throws(StreamFormatError) -> [ServerSentEvent] {
    try parse(text).events
  }

  /// The example of ServerSentEventParser's doc comment gives the event its comments name.
  @Test func theDocumentedExampleGivesTheEventItsCommentsName() throws {
    var parser = ServerSentEventParser()
    let events = try parser.events(in: Data("id: 7\ndata: hello\n\n".utf8))
    #expect(events == [ServerSentEvent(type: "message", data: "hello", id: "7")])
    #expect(parser.lastEventID == "7")
    #expect(events.first?.retry == nil)
  }

  // MARK: The standard's examples

  @Test func dataLinesAreJoinedWithLF() throws {
    #expect(
      try Self.events("data: YHOO\ndata: +2\ndata: 10\n\n") == [
        ServerSentEvent(data: "YHOO\n+2\n10")
      ])
  }

  @Test func commentsIdsAndAnUnfinishedLastEvent() throws {
    let stream =
      ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\n"
      + "data:  third event\n"
    let parsed = try Self.parse(stream)
    #expect(
      parsed.events == [
        ServerSentEvent(data: "first event", id: "1"),
        ServerSentEvent(data: "second event", id: nil),
      ])
    #expect(parsed.lastEventID == "")
  }

  @Test func emptyDataStillDispatchesAndTheLastBlockIsDiscarded() throws {
    #expect(
      try Self.events("data\n\ndata\ndata\n\ndata:") == [
        ServerSentEvent(data: ""), ServerSentEvent(data: "\n"),
      ])
  }

  @Test func oneSpaceAfterTheColonIsOptional() throws {
    let event = ServerSentEvent(data: "test")
    #expect(try Self.events("data:test\n\ndata: test\n\n") == [event, event])
  }

  @Test func eventTypesComeFromTheEventField() throws {
    let stream =
      "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\n"
      + "event: add\ndata: 113411\n\n"
    #expect(
      try Self.events(stream) == [
        ServerSentEvent(type: "add", data: "73857293"),
        ServerSentEvent(type: "remove", data: "2153"),
        ServerSentEvent(type: "add", data: "113411"),
      ])
  }

  // MARK: Lines

  @Test func crLfAndCRLFAllEndLines() throws {
    #expect(try Self.events("data: a\rdata: b\r\r") == [ServerSentEvent(data: "a\nb")])
    #expect(
      try Self.events("data: a\r\ndata: b\rdata: c\n\r\n") == [ServerSentEvent(data: "a\nb\nc")])
    #expect(
      try Self.events("data: 1\r\n\r\ndata: 2\n\ndata: 3\r\r") == [
        ServerSentEvent(data: "1"), ServerSentEvent(data: "2"), ServerSentEvent(data: "3"),
      ])
  }

  @Test func aCRLFSplitAcrossChunksIsOneLineEnd() throws {
    // Were the LF read as a blank line of its own, "a" and "b" would be two events.
    let chunks = ["data: a\r", "\ndata: b\r", "\n\r", "\n"].map(ChunkedBody.bytes)
    #expect(try Self.parse(chunks).events == [ServerSentEvent(data: "a\nb")])
  }

  @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() throws {
    #expect(try Self.events("\u{FEFF}data: a\n\n") == [ServerSentEvent(data: "a")])
    // A second mark is part of the first line, whose field is then unknown.
    #expect(try Self.events("\u{FEFF}\u{FEFF}data: a\n\n") == [])
    #expect(try Self.events("data: \u{FEFF}a\n\n") == [ServerSentEvent(data: "\u{FEFF}a")])
    #expect(
      try Self.events("data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")])
  }

  @Test func aByteOrderMarkSplitAcrossChunksIsSkipped() throws {
    let data = ChunkedBody.bytes("\u{FEFF}data: a\n\n")
    for chunks in ChunkedBody.threePieces(data.prefix(5)) {
      let parsed = try Self.parse(chunks + [data.dropFirst(5)])
      #expect(parsed.events == [ServerSentEvent(data: "a")], "\(chunks.map(\.count))")
    }
  }

  @Test func aPartialByteOrderMarkIsContent() throws {
    // EF BB followed by "d" is not a mark: the bytes stay, decoded as U+FFFD.
    var data = Data([0xEF, 0xBB])
    data.append(contentsOf: ChunkedBody.bytes("data: a\n\ndata: b\n\n"))
    #expect(try Self.parse([data]).events == [ServerSentEvent(data: "b")])
    #expect(
      try Self.parse([data.prefix(1), data.dropFirst(1)]).events == [ServerSentEvent(data: "b")])
  }

  @Test func invalidUTF8BecomesReplacementCharacters() throws {
    var data = ChunkedBody.bytes("data: a")
    data.append(0xFF)
    data.append(contentsOf: ChunkedBody.bytes("b\n\n"))
    #expect(try Self.parse([data]).events == [ServerSentEvent(data: "a\u{FFFD}b")])
  }

  // MARK: Fields

  @Test func commentLinesAreIgnored() throws {
    #expect(
      try Self.events(":hello\ndata: a\n: another\n:\n\n") == [ServerSentEvent(data: "a")])
  }

  @Test func fieldNamesMustMatchExactly() throws {
    // The web-platform-tests case "format-field-parsing".
    let stream =
      "data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n"
      + " data:32\ndata:4\n\n"
    #expect(try Self.events(stream) == [ServerSentEvent(data: "\0\n 2\n1\n3\n\n4")])
  }

  @Test func onlyOneLeadingSpaceIsRemoved() throws {
    #expect(try Self.events("data:  two\n\n") == [ServerSentEvent(data: " two")])
    #expect(try Self.events("data:\tx\n\n") == [ServerSentEvent(data: "\tx")])
    #expect(try Self.events("data: x \n\n") == [ServerSentEvent(data: "x ")])
  }

  @Test func onlyTheFirstColonSplitsTheLine() throws {
    #expect(try Self.events("data: a: b:c\n\n") == [ServerSentEvent(data: "a: b:c")])
  }

  @Test func aLineWithoutAColonIsAFieldWithAnEmptyValue() throws {
    #expect(try Self.events("data\ndata\n\n") == [ServerSentEvent(data: "\n")])
    #expect(
      try Self.events("event: a\nevent\ndata: x\n\n") == [
        ServerSentEvent(type: "message", data: "x")
      ])
  }

  @Test func unknownFieldsAreIgnoredAndNamesAreCaseSensitive() throws {
    #expect(try Self.events("foo: bar\nData: x\nEVENT: y\n\n") == [])
    #expect(try Self.events("foo: bar\ndata: x\nid : 3\n\n") == [ServerSentEvent(data: "x")])
  }

  @Test func anEventWithoutDataIsNotDispatchedAndForgetsItsType() throws {
    #expect(
      try Self.events("event: ping\n\ndata: x\n\n") == [ServerSentEvent(type: "message", data: "x")]
    )
  }

  @Test func anEmptyEventFieldMeansMessage() throws {
    #expect(try Self.events("event:\ndata: x\n\n") == [ServerSentEvent(data: "x")])
  }

  // MARK: Last event ID

  @Test func theIDPersistsAcrossEvents() throws {
    #expect(
      try Self.events("id: 5\ndata: a\n\ndata: b\n\n") == [
        ServerSentEvent(data: "a", id: "5"), ServerSentEvent(data: "b", id: "5"),
      ])
  }

  @Test func anEmptyIDResetsIt() throws {
    let parsed = try Self.parse("id: 5\ndata: a\n\nid:\ndata: b\n\n")
    #expect(parsed.events.map(\.id) == ["5", nil])
    #expect(parsed.lastEventID == "")
  }

  @Test func anIDHoldingNULIsIgnored() throws {
    var data = ChunkedBody.bytes("id: 1\ndata: a\n\nid: 2")
    data.append(0)
    data.append(contentsOf: ChunkedBody.bytes("3\ndata: b\n\n"))
    let parsed = try Self.parse([data])
    #expect(parsed.events.map(\.id) == ["1", "1"])
    #expect(parsed.lastEventID == "1")
  }

  @Test func anIDIsTakenEvenByAnEventWithoutData() throws {
    let parsed = try Self.parse("id: 9\n\n")
    #expect(parsed.events == [])
    #expect(parsed.lastEventID == "9")
  }

  @Test func theIDOfAnUnfinishedEventIsNotTaken() throws {
    let parsed = try Self.parse("id: 1\ndata: a\n\nid: 2\ndata: b\n")
    #expect(parsed.events == [ServerSentEvent(data: "a", id: "1")])
    #expect(parsed.lastEventID == "1")
  }

  @Test func theLastEventIDIsUpdatedAsEventsAreDispatched() throws {
    var parser = ServerSentEventParser()
    _ = try parser.events(in: ChunkedBody.bytes("id: 1\ndata: a\n"))
    #expect(parser.lastEventID == "")
    _ = try parser.events(in: ChunkedBody.bytes("\n"))
    #expect(parser.lastEventID == "1")
  }

  @Test func aLastEventIDFromAnEarlierConnectionIsKeptUntilTheStreamSendsOne() throws {
    let parser = ServerSentEventParser(lastEventID: "42")
    let parsed = try Self.parse(
      [ChunkedBody.bytes("data: a\n\nid: 43\ndata: b\n\n")], parser: parser)
    #expect(parsed.events.map(\.id) == ["42", "43"])
    #expect(parsed.lastEventID == "43")
  }

  // MARK: Retry

  @Test func retrySetsTheReconnectionTimeInMilliseconds() throws {
    let parsed = try Self.parse("retry: 1500\ndata: a\n\nretry: 250\n\ndata: b\n\n")
    #expect(parsed.events.map(\.retry) == [1.5, 0.25])
    #expect(parsed.reconnectionDelay == 0.25)
  }

  @Test func retryWithAnythingButDigitsIsIgnored() throws {
    for value in [
      "15x", "-1", "1.5", " 100", "+100", "1e3", "", "٣", "100 ", "99999999999999999999999",
    ] {
      let parsed = try Self.parse("retry: 3000\n\nretry: \(value)\ndata: a\n\n")
      #expect(parsed.reconnectionDelay == 3, "\(value)")
      #expect(parsed.events.first?.retry == 3, "\(value)")
    }
    #expect(try Self.parse("retry\ndata: a\n\n").reconnectionDelay == nil)
  }

  @Test func retryTakesEffectWithoutABlankLine() throws {
    var parser = ServerSentEventParser()
    _ = try parser.events(in: ChunkedBody.bytes("retry: 10\n"))
    #expect(parser.reconnectionDelay == 0.01)
    #expect(try parser.events(in: ChunkedBody.bytes("retry: 007\n")) == [])
    #expect(parser.reconnectionDelay == 0.007)
  }

  // MARK: End of stream

  @Test func anUnfinishedEventIsDiscardedAtTheEnd() throws {
    #expect(try Self.events("data: a\n") == [])
    #expect(try Self.events("data: a") == [])
    #expect(try Self.events("data: a\r") == [])
  }

  @Test func afterFinishTheParserReadsANewStream() throws {
    var parser = ServerSentEventParser()
    #expect(
      try parser.events(in: ChunkedBody.bytes("retry: 5\nid: 1\ndata: a\n\nevent: x\ndata: lost\r"))
        == [
          ServerSentEvent(data: "a", id: "1", retry: 0.005)
        ])
    parser.finish()
    // The next stream starts fresh (its own mark, no held CR) but keeps the id and the delay.
    let next = try parser.events(in: ChunkedBody.bytes("\u{FEFF}\ndata: b\n\n"))
    #expect(next == [ServerSentEvent(data: "b", id: "1", retry: 0.005)])
  }
}
