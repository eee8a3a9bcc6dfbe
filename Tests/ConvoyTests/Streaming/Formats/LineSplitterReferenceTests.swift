import Convoy
import Foundation
import Testing

/// Random text split in random chunks gives the lines a whole-text split gives.
@Suite struct LineSplitterReferenceTests {
  /// Lines of a whole text: split at LF, a CR just before an LF dropped, a non-empty
  /// unterminated rest last (its final CR kept: no LF followed it).
  static func reference(_ text: String) -> [String] {
    // Work on scalars: CRLF is one Character, so a Character split would miss its LF.
    var pieces = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.UnicodeScalarView.init)
    let rest = pieces.removeLast()
    var lines = pieces.map { piece in
      var scalars = piece
      if scalars.last == "\r" { scalars.removeLast() }
      return String(scalars)
    }
    if !rest.isEmpty { lines.append(String(rest)) }
    return lines
  }

  @Test func randomTextInRandomChunksMatchesAWholeSplit() throws {
    let tokens = ["a", "é", "👋", " ", "\r", "\n", "\r\n", "\n\n", "{\"id\":1}"]
    var random = ChunkedBody.SeededRandom(state: 7)
    for round in 0..<400 {
      let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in
        tokens.randomElement(using: &random)!
      }.joined()
      let data = ChunkedBody.bytes(text)
      let expected = Self.reference(text)
      let whole = try LineSplitterTests.split([data])
      #expect(whole == expected, "round \(round) \(text.debugDescription)")
      var cuts = (0..<Int.random(in: 1...5, using: &random)).map { _ in
        Int.random(in: 0...data.count, using: &random)
      }
      cuts.sort()
      let bounds = [0] + cuts + [data.count]
      let chunks = zip(bounds, bounds.dropFirst()).map { data[$0..<$1] }
      #expect(try LineSplitterTests.split(chunks) == expected, "round \(round) \(cuts)")
    }
  }
}
