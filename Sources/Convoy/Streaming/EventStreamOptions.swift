import Foundation

/// How a server-sent event stream is read and reopened.
///
/// An event stream is meant to last: when it ends or drops, it is opened again after the
/// reconnection delay (the server's `retry:` field, else ``reconnectionDelay``), carrying the
/// last event's id in `Last-Event-ID` so the server can resume. It stops for good on `204 No
/// Content`, on an answer that is not `text/event-stream`, on an error status, or when its task is
/// cancelled.
public struct EventStreamOptions: Sendable, Hashable {
  /// The buffer size and the head and idle limits of each connection.
  public var stream: StreamOptions
  /// The wait before reconnecting until the server sets one with `retry:`; 3 seconds by default.
  public var reconnectionDelay: TimeInterval
  /// The longest wait between two connections, whatever the server asks; 60 seconds by default.
  public var maximumReconnectionDelay: TimeInterval
  /// How many times to reconnect before giving up with the last failure, or `nil` for no limit.
  public var maximumReconnections: Int?
  /// The id to resume after, sent as `Last-Event-ID` on the first connection too.
  public var lastEventID: String?

  /// Creates options.
  public init(
    stream: StreamOptions = StreamOptions(), reconnectionDelay: TimeInterval = 3,
    maximumReconnectionDelay: TimeInterval = 60, maximumReconnections: Int? = nil,
    lastEventID: String? = nil
  ) {
    self.stream = stream
    self.reconnectionDelay = reconnectionDelay
    self.maximumReconnectionDelay = maximumReconnectionDelay
    self.maximumReconnections = maximumReconnections
    self.lastEventID = lastEventID
  }
}
