import Foundation

/// One server-sent event for ``MockAnswer/events(_:every:then:)``.
public struct MockEvent: Sendable, Equatable {
  /// The `id:` field; `nil` sends none.
  public var id: String?
  /// The `event:` field (the event's type); `nil` sends none, which means `message`.
  public var event: String?
  /// The data; each line becomes a `data:` line.
  public var data: String
  /// The `retry:` field in milliseconds; `nil` sends none.
  public var retry: Int?

  /// An event with `data` and optional fields.
  public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
    self.id = id
    self.event = event
    self.data = data
    self.retry = retry
  }

  /// The event as it goes on the wire, ended by its blank line.
  public var text: String {
    var lines: [String] = []
    if let retry { lines.append("retry: \(retry)") }
    if let id { lines.append("id: \(id)") }
    if let event { lines.append("event: \(event)") }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append("data: \(line)")
    }
    return lines.joined(separator: "\n") + "\n\n"
  }
}

/// How a scripted event stream ends.
public enum MockEventStreamEnding: Sendable, Equatable {
  /// The body ends properly: the client sees the end of the stream.
  case end
  /// The connection drops after the last event, without the end of the chunked body: the client
  /// sees a broken stream and, for server-sent events, reconnects.
  case drop
}

extension MockAnswer {
  /// A `text/event-stream` answer sending `events`, one chunk each, `interval` apart, then
  /// ending as `ending` says.
  public static func events(
    _ events: [MockEvent], every interval: Duration = .zero,
    then ending: MockEventStreamEnding = .end
  ) -> MockAnswer {
    let chunks = events.enumerated().map { index, event in
      MockChunk(event.text, after: index == 0 ? .zero : interval)
    }
    return MockAnswer(
      headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
      body: .chunks(chunks), fault: ending == .drop ? .omitFinalChunk : nil)
  }
}
