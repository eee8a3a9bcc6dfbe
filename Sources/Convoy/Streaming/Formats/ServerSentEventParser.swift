import Foundation

/// Reads a `text/event-stream` body that arrives in chunks of any size, following the WHATWG
/// HTML standard's event stream interpretation exactly.
///
/// - A UTF-8 byte order mark at the very start of the stream is skipped; the text is decoded
///   as UTF-8, invalid bytes becoming U+FFFD as the standard asks (never an error).
/// - Lines end at CRLF, LF or CR, also when CR and LF arrive in different chunks.
/// - A blank line dispatches the event; a line starting with `:` is a comment.
/// - `field: value` lines (one space after the colon is dropped; a line without a colon is a
///   field with an empty value): `event` sets the type, `data` adds a line of data, `id` sets
///   the last event ID (ignored when it holds NUL; empty resets it), `retry` sets the
///   reconnection time when it is ASCII digits only (milliseconds). Other fields are ignored.
/// - An event without data is not dispatched, but its type is forgotten and its `id` still
///   becomes ``lastEventID``; an event not ended by a blank line when the stream ends is
///   discarded.
///
/// Memory stays bounded: the event being read (its data and the line being read) may not
/// exceed `maximumEventSize` bytes, or ``StreamFormatError/eventTooLarge(limit:)`` is thrown.
/// When a chunk dispatches events before the event that is too large, those events are returned
/// and ``failure`` holds the error, which the next call throws: what a reader sees never depends
/// on where the chunks were cut. Once a call has thrown, every later call throws the same error
/// until ``finish()`` readies the parser for a new stream.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// let events = try parser.events(in: Data("id: 7\ndata: hello\n\n".utf8))
/// // [ServerSentEvent(type: "message", data: "hello", id: "7")]
/// print(events.map(\.data), parser.lastEventID)  // ["hello"] 7
/// ```
public struct ServerSentEventParser: Sendable {
  /// The largest event accepted, in bytes: its data so far plus the line being read.
  public let maximumEventSize: Int
  /// The last event ID of the stream: the `id` in force when the latest event was dispatched,
  /// to send as `Last-Event-ID` when reconnecting; empty when there is none.
  public private(set) var lastEventID: String
  /// The reconnection time, in seconds, from the latest valid `retry` field; `nil` until the
  /// stream sends one.
  public private(set) var reconnectionDelay: TimeInterval?
  /// The error that ended the stream, if any; every later call to ``events(in:)`` throws it.
  ///
  /// Check it when the stream ends: a chunk that completed events before the event that was too
  /// large returned those events without throwing.
  public private(set) var failure: StreamFormatError?

  private var line: [UInt8] = []
  private var data: [UInt8] = []
  private var eventType = ""
  /// The standard's "last event ID buffer": becomes ``lastEventID`` when an event is dispatched.
  private var eventIDBuffer: String
  /// The last line ended with CR: an LF starting the next bytes completes a CRLF.
  private var afterCR = false
  /// The stream's first bytes are still being compared with a byte order mark.
  private var atStreamStart = true
  private var bomCandidate: [UInt8] = []

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Creates a parser for one stream.
  ///
  /// - Parameters:
  ///   - maximumEventSize: The largest event accepted, in bytes; 8 MiB unless told otherwise.
  ///   - lastEventID: The last event ID known from an earlier connection, which events keep
  ///     until the stream sends an `id` (as browsers do when they reconnect); empty for none.
  public init(maximumEventSize: Int = 8 << 20, lastEventID: String = "") {
    self.maximumEventSize = max(0, maximumEventSize)
    self.lastEventID = lastEventID
    self.eventIDBuffer = lastEventID
  }

  /// The events that `chunk` completes, in order.
  ///
  /// - Parameter chunk: The next bytes of the stream.
  /// - Returns: The events dispatched by blank lines in this chunk; empty when there are none.
  /// - Throws: ``StreamFormatError/eventTooLarge(limit:)`` when the event being read grows past
  ///   ``maximumEventSize``.
  public mutating func events(in chunk: Data) throws(StreamFormatError) -> [ServerSentEvent] {
    if let failure { throw failure }
    var events: [ServerSentEvent] = []
    let stop = chunk.withUnsafeBytes { bytes in read(bytes, into: &events) }
    if let stop {
      // Events dispatched before the bad one are whole: hand them out now and throw on the
      // next call, as a reader would have seen them had the chunk been cut after them.
      failure = stop
      line = []
      data = []
      if events.isEmpty { throw stop }
    }
    return events
  }

  /// Ends the stream: an event not yet ended by a blank line is discarded, as the standard
  /// asks. ``lastEventID`` and ``reconnectionDelay`` stay, and the parser is ready for the
  /// stream of the next connection.
  public mutating func finish() {
    line = []
    data = []
    eventType = ""
    eventIDBuffer = lastEventID
    afterCR = false
    atStreamStart = true
    bomCandidate = []
    failure = nil
  }

  private mutating func read(
    _ bytes: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]
  ) -> StreamFormatError? {
    guard atStreamStart else { return readLines(bytes, into: &events) }
    // The mark may itself arrive split over chunks: hold its first bytes until they decide.
    var consumed = 0
    while bomCandidate.count < 3, consumed < bytes.count,
      bytes[consumed] == Self.byteOrderMark[bomCandidate.count]
    {
      bomCandidate.append(bytes[consumed])
      consumed += 1
    }
    if bomCandidate.count < 3, consumed == bytes.count { return nil }
    atStreamStart = false
    let held = bomCandidate
    bomCandidate = []
    if held.count < 3, let failure = held.withUnsafeBytes({ readLines($0, into: &events) }) {
      return failure
    }
    return readLines(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), into: &events)
  }

  private mutating func readLines(
    _ bytes: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]
  ) -> StreamFormatError? {
    var start = 0
    // Where the next LF and CR are; each is searched again only once passed, so a chunk of many
    // lines is scanned once, at memchr speed.
    var nextLF = -1
    var nextCR = -1
    while start < bytes.count {
      if afterCR {
        afterCR = false
        if bytes[start] == ByteScan.lf {
          start += 1
          continue
        }
      }
      if nextLF < start {
        nextLF = ByteScan.firstIndex(of: ByteScan.lf, in: bytes, from: start) ?? bytes.count
      }
      if nextCR < start {
        nextCR = ByteScan.firstIndex(of: ByteScan.cr, in: bytes, from: start) ?? bytes.count
      }
      let end = min(nextLF, nextCR)
      guard data.count + line.count + (end - start) <= maximumEventSize else {
        return .eventTooLarge(limit: maximumEventSize)
      }
      line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
      guard end < bytes.count else { break }
      afterCR = bytes[end] == ByteScan.cr
      if let event = process(line) { events.append(event) }
      // Keep a small buffer for the next line, but hand a large one back.
      line.removeAll(keepingCapacity: line.capacity <= 4096)
      start = end + 1
    }
    return nil
  }

  /// Interprets one complete line; returns the event a blank line dispatches.
  private mutating func process(_ line: [UInt8]) -> ServerSentEvent? {
    guard let first = line.first else { return dispatch() }
    if first == UInt8(ascii: ":") { return nil }
    let field: ArraySlice<UInt8>
    var value: ArraySlice<UInt8>
    if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      field = line[..<colon]
      value = line[(colon + 1)...]
      if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
    } else {
      field = line[...]
      value = []
    }
    switch String(decoding: field, as: UTF8.self) {
    case "event":
      eventType = String(decoding: value, as: UTF8.self)
    case "data":
      data.append(contentsOf: value)
      data.append(ByteScan.lf)
    case "id":
      if !value.contains(0) { eventIDBuffer = String(decoding: value, as: UTF8.self) }
    case "retry":
      if let milliseconds = Self.milliseconds(value) {
        reconnectionDelay = TimeInterval(milliseconds) / 1000
      }
    default:
      break
    }
    return nil
  }

  /// The standard's "dispatch the event" steps.
  private mutating func dispatch() -> ServerSentEvent? {
    lastEventID = eventIDBuffer
    defer {
      data.removeAll(keepingCapacity: data.capacity <= 4096)
      eventType = ""
    }
    guard !data.isEmpty else { return nil }
    return ServerSentEvent(
      type: eventType.isEmpty ? "message" : eventType,
      data: String(decoding: data.dropLast(), as: UTF8.self),
      id: lastEventID.isEmpty ? nil : lastEventID,
      retry: reconnectionDelay)
  }

  /// A `retry` value made of ASCII digits only; `nil` for anything else, including a number
  /// too large to hold, which no server means.
  private static func milliseconds(_ value: ArraySlice<UInt8>) -> Int? {
    guard !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int(String(decoding: value, as: UTF8.self))
  }
}
