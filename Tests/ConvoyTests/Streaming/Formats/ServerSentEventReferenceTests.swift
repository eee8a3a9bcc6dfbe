import Convoy
import Foundation
import Testing

/// Random streams parsed by ServerSentEventParser, in random chunks, agree with a plain
/// transcription of the standard's steps that decodes the whole stream first.
@Suite struct ServerSentEventReferenceTests {
  /// The standard's steps, written for clarity over a whole stream: decode, drop one leading
  /// BOM, split at CRLF/LF/CR, process each complete line.
  static func reference(_ stream: Data) -> ServerSentEventParserTests.Parsed {
    var scalars = Array(String(decoding: stream, as: UTF8.self).unicodeScalars)
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      guard scalar == "\r" || scalar == "\n" else {
        current.append(scalar)
        continue
      }
      if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
      lines.append(String(current))
      current = String.UnicodeScalarView()
    }
    // `current` is an unterminated last line: pending data, discarded at the end.
    var events: [ServerSentEvent] = []
    var data = ""
    var type = ""
    var idBuffer = ""
    var lastEventID = ""
    var retry: TimeInterval?
    for line in lines {
      if line.isEmpty {
        lastEventID = idBuffer
        if !data.isEmpty {
          data.unicodeScalars.removeLast()
          events.append(
            ServerSentEvent(
              type: type.isEmpty ? "message" : type, data: data,
              id: lastEventID.isEmpty ? nil : lastEventID, retry: retry))
        }
        data = ""
        type = ""
        continue
      }
      if line.unicodeScalars.first == ":" { continue }
      var field = line
      var value = ""
      if let colon = line.unicodeScalars.firstIndex(of: ":") {
        field = String(line.unicodeScalars[..<colon])
        value = String(line.unicodeScalars[line.unicodeScalars.index(after: colon)...])
        if value.unicodeScalars.first == " " { value.unicodeScalars.removeFirst() }
      }
      switch Array(field.unicodeScalars) {
      case Array("event".unicodeScalars): type = value
      case Array("data".unicodeScalars): data += value + "\n"
      case Array("id".unicodeScalars):
        if !value.unicodeScalars.contains("\u{0}") { idBuffer = value }
      case Array("retry".unicodeScalars):
        let digits = value.unicodeScalars.allSatisfy { $0.isASCII && ("0"..."9").contains($0) }
        if digits, let milliseconds = Int(value) { retry = TimeInterval(milliseconds) / 1000 }
      default: break
      }
    }
    return ServerSentEventParserTests.Parsed(
      events: events, lastEventID: lastEventID, reconnectionDelay: retry)
  }

  /// The pieces random streams are made of: every rule's trigger, more than once.
  static let tokens: [[UInt8]] =
    [
      "data", "data:", "data: ", "event:", "event: a", "id:", "id: 7", "retry:", "retry: 25",
      "retry: 2x", ":", ": note", " ", "x", "é", "👋", "\r", "\n", "\r\n", "\n\n", "\r\r",
      "\u{FEFF}",
      "\u{0}", "Data:",
    ].map { Array($0.utf8) } + [[0xFF], [0xEF, 0xBB], [0xE2, 0x82]]

  @Test func randomStreamsInRandomChunksMatchTheStandardsSteps() throws {
    var random = ChunkedBody.SeededRandom(state: 12)
    for round in 0..<600 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...40, using: &random) {
        bytes += Self.tokens.randomElement(using: &random)!
      }
      let stream = Data(bytes)
      let expected = Self.reference(stream)
      #expect(try ServerSentEventParserTests.parse([stream]) == expected, "round \(round)")
      for _ in 0..<4 {
        var cuts = (0..<Int.random(in: 1...6, using: &random)).map { _ in
          Int.random(in: 0...stream.count, using: &random)
        }
        cuts.sort()
        let bounds = [0] + cuts + [stream.count]
        let chunks = zip(bounds, bounds.dropFirst()).map { stream[$0..<$1] }
        #expect(
          try ServerSentEventParserTests.parse(chunks) == expected, "round \(round) \(cuts)")
      }
    }
  }
}
