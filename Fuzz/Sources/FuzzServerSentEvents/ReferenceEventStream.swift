// A plain reading of the WHATWG HTML standard's "interpreting an event stream" (§9.2.6),
// written for clarity, not speed: the whole stream at once, decoded first, then split into
// lines. Convoy's parser must agree with it on every input and every way of cutting the input
// into chunks.

/// What a stream produced: its events, and the parser's state at its end.
struct EventStreamReading: Equatable {
  var events: [EventReading] = []
  var lastEventID = ""
  var reconnectionDelay: Double?
}

struct EventReading: Equatable {
  var type: String
  var data: String
  var id: String?
  var retry: Double?
}

enum ReferenceEventStream {
  static func read(_ bytes: [UInt8]) -> EventStreamReading {
    // "UTF-8 decode": one leading byte order mark (a code point, not a `Character`, which may
    // hold a combining mark too) is dropped; invalid bytes become U+FFFD.
    var scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)[...]
    if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
    var reading = EventStreamReading()
    var data = ""
    var eventType = ""
    var idBuffer = ""
    // Lines end at CRLF, LF or CR; an unterminated last line is never processed.
    var line: [Unicode.Scalar] = []
    while let scalar = scalars.popFirst() {
      if scalar != "\r" && scalar != "\n" {
        line.append(scalar)
        continue
      }
      if scalar == "\r", scalars.first == "\n" { scalars.removeFirst() }
      process(line, reading: &reading, data: &data, eventType: &eventType, idBuffer: &idBuffer)
      line = []
    }
    return reading
  }

  /// The standard speaks of code points, so the line is scalars: compared as `String`s, a colon
  /// or space followed by a combining mark would be one `Character` and go unseen.
  private static func process(
    _ line: [Unicode.Scalar], reading: inout EventStreamReading, data: inout String,
    eventType: inout String, idBuffer: inout String
  ) {
    let text = { (scalars: ArraySlice<Unicode.Scalar>) in
      String(String.UnicodeScalarView(scalars))
    }
    if line.isEmpty {
      // Dispatch.
      reading.lastEventID = idBuffer
      defer {
        data = ""
        eventType = ""
      }
      guard !data.isEmpty else { return }
      // The data ends with the LF of its last line, which is not part of it.
      data.unicodeScalars.removeLast()
      reading.events.append(
        EventReading(
          type: eventType.isEmpty ? "message" : eventType, data: data,
          id: idBuffer.isEmpty ? nil : idBuffer, retry: reading.reconnectionDelay))
      return
    }
    if line.first == ":" { return }
    var field = line[...]
    var value: ArraySlice<Unicode.Scalar> = []
    if let colon = line.firstIndex(of: ":") {
      field = line[..<colon]
      value = line[(colon + 1)...]
      if value.first == " " { value = value.dropFirst() }
    }
    switch Array(field) {
    case Array("event".unicodeScalars): eventType = text(value)
    case Array("data".unicodeScalars): data += text(value) + "\n"
    case Array("id".unicodeScalars): if !value.contains("\0") { idBuffer = text(value) }
    case Array("retry".unicodeScalars):
      // ASCII digits only; a number too large to hold is ignored (Convoy's documented choice).
      if !value.isEmpty, value.allSatisfy({ ("0"..."9").contains($0) }),
        let milliseconds = Int(text(value))
      {
        reading.reconnectionDelay = Double(milliseconds) / 1000
      }
    default: break
    }
  }
}
