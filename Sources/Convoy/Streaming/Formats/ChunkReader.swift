import Foundation

/// A stream format read chunk by chunk: ``LineSplitter`` for lines, ``ServerSentEventParser``
/// for events.
protocol ChunkFormat {
  /// What the format makes of the bytes: a line, an event.
  associatedtype Item
  /// The error that ended the stream, once one did.
  var failure: StreamFormatError? { get }
  /// The items `chunk` completes.
  mutating func items(in chunk: Data) throws(StreamFormatError) -> [Item]
  /// The item the end of the stream completes, if any.
  mutating func end() throws(StreamFormatError) -> Item?
}

/// Reads a body's chunks through a format until an item is ready, handing the items out one by
/// one: the one loop behind ``ResponseLines`` and ``ServerSentEvents``.
struct ChunkReader<Base: AsyncIteratorProtocol, Format: ChunkFormat> where Base.Element == Data {
  var base: Base
  var format: Format
  var ready: [Format.Item] = []
  var readyIndex = 0
  var isDone = false

  init(base: Base, format: Format) {
    self.base = base
    self.format = format
  }

  /// The next item, or `nil` once the base has ended and every item was handed out.
  mutating func next() async throws -> Format.Item? {
    while readyIndex == ready.count {
      guard !isDone else { return nil }
      do {
        // Items before a failure were handed out: throw it now, without reading on.
        if let failure = format.failure { throw failure }
        guard let chunk = try await base.next() else {
          isDone = true
          return try format.end()
        }
        ready = try format.items(in: chunk)
        readyIndex = 0
      } catch {
        // A failed stream is over: later calls end the loop instead of reading on.
        isDone = true
        ready = []
        readyIndex = 0
        throw error
      }
    }
    defer { readyIndex += 1 }
    return ready[readyIndex]
  }
}

extension LineSplitter: ChunkFormat {
  mutating func items(in chunk: Data) throws(StreamFormatError) -> [String] {
    try lines(in: chunk)
  }
  mutating func end() throws(StreamFormatError) -> String? { try finish() }
}

extension ServerSentEventParser: ChunkFormat {
  mutating func items(in chunk: Data) throws(StreamFormatError) -> [ServerSentEvent] {
    try events(in: chunk)
  }
  /// An event not ended by a blank line is discarded (WHATWG HTML, "event stream
  /// interpretation"), so the end completes none.
  mutating func end() -> ServerSentEvent? {
    finish()
    return nil
  }
}
