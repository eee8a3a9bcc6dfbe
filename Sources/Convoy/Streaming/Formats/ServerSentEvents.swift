import Foundation

/// The server-sent events of a `text/event-stream` body, parsed as the loop asks for them.
///
/// Parsing only (see ``ServerSentEventParser`` for the rules): when the base ends, an event not
/// ended by a blank line is discarded and the loop ends; reconnecting is up to the caller. The
/// sequence only iterates its base: breaking out of the loop or cancelling the task stops
/// reading the base, and the base's errors reach the loop unchanged.
///
/// ```swift
/// func follow<Body: AsyncSequence>(_ body: Body) async throws where Body.Element == Data {
///   for try await event in body.serverSentEvents where event.type == "update" {
///     print(event.id ?? "-", event.data)
///   }
/// }
/// ```
public struct ServerSentEvents<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
  /// One dispatched event.
  public typealias Element = ServerSentEvent

  let base: Base
  let parser: ServerSentEventParser

  /// Creates the events of `base`.
  ///
  /// - Parameters:
  ///   - base: The body's chunks.
  ///   - parser: The parser to start from, e.g. one made with a size limit or with the last
  ///     event ID of an earlier connection.
  public init(_ base: Base, parser: ServerSentEventParser = ServerSentEventParser()) {
    self.base = base
    self.parser = parser
  }

  /// Starts reading the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(reader: ChunkReader(base: base.makeAsyncIterator(), format: parser))
  }

  /// Reads chunks from the base until an event is dispatched.
  public struct Iterator: AsyncIteratorProtocol {
    var reader: ChunkReader<Base.AsyncIterator, ServerSentEventParser>

    /// The parser's state: ``ServerSentEventParser/lastEventID`` and
    /// ``ServerSentEventParser/reconnectionDelay`` so far.
    public var parser: ServerSentEventParser { reader.format }

    /// The next event, or `nil` once the base has ended.
    public mutating func next() async throws -> ServerSentEvent? {
      try await reader.next()
    }
  }
}

extension ServerSentEvents: Sendable where Base: Sendable {}

extension AsyncSequence where Element == Data {
  /// These chunks read as a `text/event-stream`: the events they dispatch, with the standard
  /// 8 MiB limit per event.
  ///
  /// ```swift
  /// func messages<Body: AsyncSequence>(_ body: Body) async throws -> [String]
  /// where Body.Element == Data {
  ///   var messages: [String] = []
  ///   for try await event in body.serverSentEvents { messages.append(event.data) }
  ///   return messages
  /// }
  /// ```
  public var serverSentEvents: ServerSentEvents<Self> { ServerSentEvents(self) }
}
