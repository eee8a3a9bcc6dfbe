import Foundation

/// One event of a `text/event-stream` body, as the WHATWG HTML standard dispatches it.
///
/// ```swift
/// let event = ServerSentEvent(type: "update", data: "{\"id\":1}", id: "41")
/// if event.type == "update" { print(event.data) }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
  /// The event's type: its last `event` field, or `"message"` when it had none.
  public var type: String
  /// The event's `data` lines joined with LF; never ends with the LF of its last line.
  public var data: String
  /// The last event ID when the event was dispatched: set by this or an earlier event's `id`
  /// field; `nil` when it is empty.
  public var id: String?
  /// The reconnection time most recently set by the stream's `retry` field, if any: a
  /// convenience copy of ``ServerSentEventParser/reconnectionDelay``.
  public var retry: TimeInterval?

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - type: The event's type; `"message"` unless told otherwise.
  ///   - data: The event's data.
  ///   - id: The last event ID, or `nil` for none.
  ///   - retry: The reconnection time in seconds, or `nil` when the stream set none.
  public init(
    type: String = "message", data: String, id: String? = nil, retry: TimeInterval? = nil
  ) {
    self.type = type
    self.data = data
    self.id = id
    self.retry = retry
  }
}
