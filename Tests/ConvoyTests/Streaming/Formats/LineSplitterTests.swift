import Convoy
import Foundation
import Testing

@Suite struct LineSplitterTests {
  /// Every line of `chunks`, the unterminated last one included.
  static func split(_ chunks: [Data], limit: Int = 1 << 20) throws(StreamFormatError) -> [String] {
    var splitter = LineSplitter(maximumLineLength: limit)
    var lines: [String] = []
    for chunk in chunks { lines += try splitter.lines(in: chunk) }
    if let last = try splitter.finish() { lines.append(last) }
    return lines
  }

  static func split(_ text: String, limit: Int = 1 << 20) throws(StreamFormatError) -> [String] {
    try split([ChunkedBody.bytes(text)], limit: limit)
  }

  @Test func linesEndAtLFAndCRLFWithoutTheirTerminators() throws {
    #expect(try Self.split("one\ntwo\r\nthree\n") == ["one", "two", "three"])
  }

  @Test func aCRLFSplitAcrossChunksIsOneLineEnd() throws {
    var splitter = LineSplitter()
    #expect(try splitter.lines(in: ChunkedBody.bytes("one\r")) == [])
    #expect(try splitter.lines(in: ChunkedBody.bytes("\ntwo\n")) == ["one", "two"])
    #expect(try splitter.finish() == nil)
  }

  /// The example of LineSplitter's doc comment gives the lines its comments name.
  @Test func theDocumentedExampleGivesTheLinesItsCommentsName() throws {
    var splitter = LineSplitter()
    #expect(try splitter.lines(in: Data("first\r\nsec".utf8)) == ["first"])
    #expect(try splitter.lines(in: Data("ond\nthird".utf8)) == ["second"])
    #expect(try splitter.finish() == "third")
  }

  @Test func aCRLFSplitByAnEmptyChunkIsStillOneLineEnd() throws {
    #expect(try Self.split([ChunkedBody.bytes("a\r"), Data(), ChunkedBody.bytes("\n")]) == ["a"])
  }

  @Test func aLoneCRIsContent() throws {
    #expect(try Self.split("a\rb\n") == ["a\rb"])
    #expect(try Self.split([ChunkedBody.bytes("a\r"), ChunkedBody.bytes("b\n")]) == ["a\rb"])
    #expect(try Self.split("a\r\r\n") == ["a\r"])
    #expect(try Self.split("end\r") == ["end\r"])
  }

  @Test func emptyLinesAreLines() throws {
    #expect(try Self.split("\n\r\n\n") == ["", "", ""])
  }

  @Test func theLastLineNeedsNoTerminator() throws {
    var splitter = LineSplitter()
    #expect(try splitter.lines(in: ChunkedBody.bytes("first\nlast")) == ["first"])
    #expect(try splitter.finish() == "last")
    #expect(try splitter.finish() == nil)
  }

  @Test func aStreamEndingWithANewlineOrEmptyHasNoExtraLine() throws {
    #expect(try Self.split("a\n") == ["a"])
    #expect(try Self.split("") == [])
    #expect(try Self.split([]) == [])
  }

  @Test func chunksThatAreSlicesOfLargerDataAreRead() throws {
    let whole = ChunkedBody.bytes("xxone\ntwo\nyy")
    let slice = whole[whole.startIndex + 2..<whole.endIndex - 2]
    #expect(try Self.split([slice]) == ["one", "two"])
  }

  static let mixedText = "héllo\r\nwörld 👋\n\nlone\rcr\r\n\r\nend ✓"

  @Test func everyCutInTwoGivesTheSameLines() throws {
    let data = ChunkedBody.bytes(Self.mixedText)
    let expected = try Self.split([data])
    #expect(expected == ["héllo", "wörld 👋", "", "lone\rcr", "", "end ✓"])
    for chunks in ChunkedBody.twoPieces(data) {
      #expect(try Self.split(chunks) == expected, "\(chunks.map(\.count))")
    }
    #expect(try Self.split(ChunkedBody.bytewise(data)) == expected)
  }

  @Test func everyCutInThreeGivesTheSameLines() throws {
    let data = ChunkedBody.bytes("é\r\n\r\r\n👋\nx\r")
    let expected = try Self.split([data])
    #expect(expected == ["é", "\r", "👋", "x\r"])
    for chunks in ChunkedBody.threePieces(data) {
      #expect(try Self.split(chunks) == expected, "\(chunks.map(\.count))")
    }
  }

  @Test func invalidUTF8NamesItsLine() {
    var bad = ChunkedBody.bytes("fine\nalso fine\nbad ")
    bad.append(0xFF)
    bad.append(contentsOf: ChunkedBody.bytes("\nnever read\n"))
    #expect(throws: StreamFormatError.invalidUTF8(line: 3)) { try Self.split([bad]) }
  }

  @Test func linesBeforeABadOneInTheSameChunkAreReturnedFirst() throws {
    var splitter = LineSplitter(maximumLineLength: 4)
    #expect(try splitter.lines(in: ChunkedBody.bytes("one\ntwo\nthree\nfour\n")) == ["one", "two"])
    let tooLong = StreamFormatError.lineTooLong(line: 3, limit: 4)
    #expect(throws: tooLong) { try splitter.lines(in: ChunkedBody.bytes("five\n")) }
    #expect(throws: tooLong) { try splitter.finish() }
  }

  @Test func theLinesBeforeAnErrorDoNotDependOnTheChunks() {
    var data = ChunkedBody.bytes("a\r\nb\n")
    data.append(contentsOf: [0xE2, 0x82, 0x0A, 0x63, 0x0A])
    for chunks in ChunkedBody.threePieces(data) {
      var splitter = LineSplitter()
      var lines: [String] = []
      let error = #expect(throws: StreamFormatError.self) {
        for chunk in chunks { lines += try splitter.lines(in: chunk) }
        _ = try splitter.finish()
      }
      #expect(error == .invalidUTF8(line: 3), "\(chunks.map(\.count))")
      #expect(lines == ["a", "b"], "\(chunks.map(\.count))")
    }
  }

  @Test func invalidUTF8InTheLastLineIsReportedByFinish() throws {
    var splitter = LineSplitter()
    #expect(try splitter.lines(in: Data([0x6F, 0x6B, 0x0A, 0xC3])) == ["ok"])
    #expect(throws: StreamFormatError.invalidUTF8(line: 2)) { try splitter.finish() }
  }

  @Test func overlongAndSurrogateEncodingsAreInvalid() {
    // "/" encoded in two bytes, and an encoded UTF-16 surrogate: both forbidden in UTF-8.
    for bytes: [UInt8] in [[0xC0, 0xAF, 0x0A], [0xED, 0xA0, 0x80, 0x0A]] {
      #expect(throws: StreamFormatError.invalidUTF8(line: 1)) { try Self.split([Data(bytes)]) }
    }
  }

  @Test func aLineAtTheLimitIsAcceptedAndItsCRLFDoesNotCount() throws {
    #expect(try Self.split("abcd\n", limit: 4) == ["abcd"])
    #expect(try Self.split("abcd\r\n", limit: 4) == ["abcd"])
    #expect(
      try Self.split([ChunkedBody.bytes("abcd\r"), ChunkedBody.bytes("\n")], limit: 4) == ["abcd"])
    #expect(try Self.split("abcd", limit: 4) == ["abcd"])
  }

  @Test func aLineOverTheLimitThrowsWithItsNumber() {
    let tooLong = StreamFormatError.lineTooLong(line: 3, limit: 4)
    #expect(throws: tooLong) { try Self.split("a\nb\nabcde\n", limit: 4) }
    #expect(throws: tooLong) { try Self.split("a\nb\nabcde", limit: 4) }
    #expect(throws: tooLong) { try Self.split("a\nb\nabc\rd\r\n", limit: 4) }
    // The CR was kept in case an LF followed; at the end of the stream it is content.
    #expect(throws: tooLong) { try Self.split("a\nb\nabcd\r", limit: 4) }
  }

  @Test func anEndlessLineIsRejectedAsSoonAsItPassesTheLimit() throws {
    var splitter = LineSplitter(maximumLineLength: 100_000)
    let block = Data(repeating: UInt8(ascii: "x"), count: 64 * 1024)
    #expect(try splitter.lines(in: block) == [])
    #expect(throws: StreamFormatError.lineTooLong(line: 1, limit: 100_000)) {
      try splitter.lines(in: block)
    }
  }

  @Test func aHugeChunkIsRejectedWithoutBeingKept() {
    var splitter = LineSplitter(maximumLineLength: 1024)
    let huge = Data(repeating: UInt8(ascii: "x"), count: 8 << 20)
    #expect(throws: StreamFormatError.lineTooLong(line: 1, limit: 1024)) {
      try splitter.lines(in: huge)
    }
  }

  @Test func manyShortLinesInOneChunkAreAllReturned() throws {
    let text = String(repeating: "line\n", count: 10_000)
    let lines = try Self.split(text, limit: 4)
    #expect(lines.count == 10_000)
    #expect(lines.allSatisfy { $0 == "line" })
  }
}
