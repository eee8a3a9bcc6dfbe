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
    // "UTF-8 decode": one leading byte order mark is dropped, invalid bytes become U+FFFD.
    var text = Substring(String(decoding: bytes, as: UTF8.self))
    if text.unicodeScalars.first == "\u{FEFF}" { text = text.dropFirst() }
    var reading = EventStreamReading()
    var data = ""
    var eventType = ""
    var idBuffer = ""
    // Lines end at CRLF, LF or CR; an unterminated last line is never processed.
    var line: [Unicode.Scalar] = []
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      if scalar != "\r" && scalar != "\n" {
        line.append(scalar)
        continue
      }
      if scalar == "\r", scalars.first == "\n" { scalars.removeFirst() }
      process(
        String(String.UnicodeScalarView(line)), reading: &reading, data: &data,
        eventType: &eventType, idBuffer: &idBuffer)
      line = []
    }
    return reading
  }

  private static func process(
    _ line: String, reading: inout EventStreamReading, data: inout String,
    eventType: inout String, idBuffer: inout String
  ) {
    if line.isEmpty {
      // Dispatch.
      reading.lastEventID = idBuffer
      defer {
        data = ""
        eventType = ""
      }
      guard !data.isEmpty else { return }
      if data.hasSuffix("\n") { data.removeLast() }
      reading.events.append(
        EventReading(
          type: eventType.isEmpty ? "message" : eventType, data: data,
          id: idBuffer.isEmpty ? nil : idBuffer, retry: reading.reconnectionDelay))
      return
    }
    if line.hasPrefix(":") { return }
    var field = line
    var value = ""
    if let colon = line.firstIndex(of: ":") {
      field = String(line[..<colon])
      value = String(line[line.index(after: colon)...])
      if value.hasPrefix(" ") { value.removeFirst() }
    }
    switch field {
    case "event": eventType = value
    case "data": data += value + "\n"
    case "id": if !value.unicodeScalars.contains("\0") { idBuffer = value }
    case "retry":
      // ASCII digits only; a number too large to hold is ignored (Convoy's documented choice).
      if !value.isEmpty, value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
        let milliseconds = Int(value)
      {
        reading.reconnectionDelay = Double(milliseconds) / 1000
      }
    default: break
    }
  }
}
