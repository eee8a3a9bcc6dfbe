import Convoy
import Foundation
import Testing

@Suite struct ServerSentEventsSequenceTests {
  static func collect<Body: AsyncSequence>(_ events: ServerSentEvents<Body>) async throws
    -> [ServerSentEvent]
  {
    var collected: [ServerSentEvent] = []
    for try await event in events { collected.append(event) }
    return collected
  }

  @Test func eventsArriveInOrderAndAnUnfinishedOneIsDiscarded() async throws {
    let chunks = ["id: 1\nevent: up", "date\ndata: a\r", "\n\r", "\ndata: b\n\ndata: lost\n"]
    let events = try await Self.collect(
      ChunkedBody.stream(chunks.map(ChunkedBody.bytes)).serverSentEvents)
    #expect(
      events == [
        ServerSentEvent(type: "update", data: "a", id: "1"), ServerSentEvent(data: "b", id: "1"),
      ])
  }

  @Test func everyCutInTwoGivesTheSameEvents() async throws {
    let data = ChunkedBody.bytes(ServerSentEventChunkingTests.streams[0])
    let expected = try ServerSentEventParserTests.parse([data]).events
    for chunks in ChunkedBody.twoPieces(data) {
      #expect(try await Self.collect(ChunkedBody.stream(chunks).serverSentEvents) == expected)
    }
  }

  @Test func theIteratorShowsTheParsersState() async throws {
    let body = ChunkedBody.stream([ChunkedBody.bytes("retry: 2000\nid: 5\ndata: a\n\nid: 6\n")])
    var iterator = body.serverSentEvents.makeAsyncIterator()
    #expect(try await iterator.next() == ServerSentEvent(data: "a", id: "5", retry: 2))
    #expect(try await iterator.next() == nil)
    #expect(iterator.parser.lastEventID == "5")
    #expect(iterator.parser.reconnectionDelay == 2)
  }

  @Test func aGivenParserSetsTheLimitAndTheStartingID() async throws {
    let parser = ServerSentEventParser(maximumEventSize: 8, lastEventID: "41")
    let fits = ChunkedBody.stream([ChunkedBody.bytes("data: a\n\n")])
    #expect(
      try await Self.collect(ServerSentEvents(fits, parser: parser)) == [
        ServerSentEvent(data: "a", id: "41")
      ])
    let tooBig = ChunkedBody.stream([ChunkedBody.bytes("data: abc\n\n")])
    await #expect(throws: StreamFormatError.eventTooLarge(limit: 8)) {
      try await Self.collect(ServerSentEvents(tooBig, parser: parser))
    }
  }

  @Test func theBodysErrorReachesTheLoopAndEndsIt() async throws {
    let body = ChunkedBody.failing([ChunkedBody.bytes("data: a\n\n")], with: ChunkedBody.Failed())
    var iterator = body.serverSentEvents.makeAsyncIterator()
    #expect(try await iterator.next() == ServerSentEvent(data: "a"))
    await #expect(throws: ChunkedBody.Failed()) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test func chunksAreReadOnlyAsTheLoopAsks() async throws {
    let pulls = Locked(0)
    let chunks = ["data: a\n\n", "data: b\n\n", "data: c\n\n"].map(ChunkedBody.bytes)
    for try await _ in ChunkedBody.Counting(chunks: chunks, pulls: pulls).serverSentEvents { break }
    #expect(pulls.current == 1)
  }

  @Test func cancellingTheTaskEndsTheBody() async throws {
    let (body, continuation) = AsyncStream.makeStream(of: Data.self)
    let ended = Locked(false)
    continuation.onTermination = { _ in ended.withLock { $0 = true } }
    continuation.yield(ChunkedBody.bytes("data: a\n\n"))
    let reader = Task {
      var count = 0
      for try await _ in body.serverSentEvents { count += 1 }
      return count
    }
    reader.cancel()
    _ = try await reader.value
    #expect(ended.current)
  }

  @Test func eventsOfASendableBodyAreSendable() {
    let events: any Sendable = ChunkedBody.stream([]).serverSentEvents
    #expect(events is ServerSentEvents<AsyncStream<Data>>)
  }
}

extension ServerSentEventsSequenceTests {
  @Test func eventsBeforeATooLargeOneArriveAndThenTheErrorWithoutReadingOn() async throws {
    let pulls = Locked(0)
    let chunks = ["data: a\n\ndata: 0123456789AB\n\n", "data: never read\n\n"]
    let body = ChunkedBody.Counting(chunks: chunks.map(ChunkedBody.bytes), pulls: pulls)
    var iterator = ServerSentEvents(body, parser: ServerSentEventParser(maximumEventSize: 16))
      .makeAsyncIterator()
    #expect(try await iterator.next() == ServerSentEvent(data: "a"))
    await #expect(throws: StreamFormatError.eventTooLarge(limit: 16)) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
    #expect(pulls.current == 1)
  }
}
