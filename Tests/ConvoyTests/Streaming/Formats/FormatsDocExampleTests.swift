import Convoy
import Foundation
import Testing

// The examples of the Streaming/Formats doc comments and of Docs/Streaming.md (its text part),
// verbatim, so the documented code keeps compiling and meaning what it says.

private enum ResponseLinesExamples {
  static func printLines<Body: AsyncSequence>(of body: Body) async throws
  where Body.Element == Data {
    for try await line in body.lines {
      print(line)
    }
  }

  static func count<Body: AsyncSequence>(_ body: Body) async throws -> Int
  where Body.Element == Data {
    var count = 0
    for try await _ in body.lines { count += 1 }
    return count
  }
}

private enum JSONLinesExamples {
  struct Update: Decodable {
    var id: Int
    var name: String
  }

  static func names<Body: AsyncSequence>(in body: Body) async throws -> [String]
  where Body.Element == Data {
    var names: [String] = []
    for try await update in body.jsonLines(of: Update.self) {
      names.append(update.name)
    }
    return names
  }

  struct Tick: Decodable { var price: Double }

  static func lastPrice<Body: AsyncSequence>(_ body: Body) async throws -> Double?
  where Body.Element == Data {
    var last: Double?
    for try await tick in body.jsonLines(of: Tick.self) { last = tick.price }
    return last
  }
}

private enum ServerSentEventsExamples {
  static func follow<Body: AsyncSequence>(_ body: Body) async throws where Body.Element == Data {
    for try await event in body.serverSentEvents where event.type == "update" {
      print(event.id ?? "-", event.data)
    }
  }

  static func messages<Body: AsyncSequence>(_ body: Body) async throws -> [String]
  where Body.Element == Data {
    var messages: [String] = []
    for try await event in body.serverSentEvents { messages.append(event.data) }
    return messages
  }
}

@Suite struct FormatsDocExampleTests {
  @Test func lineSplitterExample() throws {
    var splitter = LineSplitter()
    var lines = try splitter.lines(in: Data("first\r\nsec".utf8))  // ["first"]
    lines += try splitter.lines(in: Data("ond\nthird".utf8))  // ["second"]
    if let last = try splitter.finish() { lines.append(last) }  // "third"
    #expect(lines == ["first", "second", "third"])
  }

  @Test func responseLinesExamples() async throws {
    let body = ChunkedBody.stream([Data("a\nb\n".utf8)])
    #expect(try await ResponseLinesExamples.count(body) == 2)
    try await ResponseLinesExamples.printLines(of: ChunkedBody.stream([]))
  }

  @Test func jsonLinesExamples() async throws {
    let updates = ChunkedBody.stream([Data("{\"id\":1,\"name\":\"Bern\"}\n".utf8)])
    #expect(try await JSONLinesExamples.names(in: updates) == ["Bern"])
    let ticks = ChunkedBody.stream([Data("{\"price\":1.5}\n{\"price\":2}\n".utf8)])
    #expect(try await JSONLinesExamples.lastPrice(ticks) == 2)
  }

  @Test func serverSentEventExample() {
    let event = ServerSentEvent(type: "update", data: "{\"id\":1}", id: "41")
    if event.type == "update" { print(event.data) }
    #expect(event.retry == nil)
  }

  @Test func serverSentEventParserExample() throws {
    var parser = ServerSentEventParser()
    let events = try parser.events(in: Data("id: 7\ndata: hello\n\n".utf8))
    // [ServerSentEvent(type: "message", data: "hello", id: "7")]
    print(events.map(\.data), parser.lastEventID)  // ["hello"] 7
    #expect(events == [ServerSentEvent(type: "message", data: "hello", id: "7")])
  }

  @Test func serverSentEventsExamples() async throws {
    let body = ChunkedBody.stream([Data("data: a\n\nevent: update\ndata: b\n\n".utf8)])
    #expect(try await ServerSentEventsExamples.messages(body) == ["a", "b"])
    try await ServerSentEventsExamples.follow(ChunkedBody.stream([]))
  }
}
