import Convoy
import Foundation
import Testing

/// The views iterate from an actor, as an app's screen model does, with no data-race
/// diagnostics and the values arriving on that actor.
@MainActor
@Suite struct StreamFormatsOnMainActorTests {
  final class Row: Decodable {
    let id: Int
  }

  @Test func aMainActorLoopReadsEveryView() async throws {
    let text = "{\"id\":1}\n"
    var lines: [String] = []
    for try await line in ChunkedBody.stream([Data(text.utf8)]).lines { lines.append(line) }
    var rows: [Row] = []
    for try await row in ChunkedBody.stream([Data(text.utf8)]).jsonLines(of: Row.self) {
      rows.append(row)
    }
    var events: [ServerSentEvent] = []
    for try await event in ChunkedBody.stream([Data("data: x\n\n".utf8)]).serverSentEvents {
      events.append(event)
    }
    #expect(lines == [text.trimmingCharacters(in: .newlines)])
    #expect(rows.map(\.id) == [1])
    #expect(events == [ServerSentEvent(data: "x")])
  }
}
