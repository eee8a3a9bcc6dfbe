import Convoy
import Foundation
import Testing

@Suite struct JSONLinesTests {
  struct Item: Decodable, Equatable {
    var id: Int
  }

  static func decode(_ chunks: [Data]) async throws -> [Item] {
    var items: [Item] = []
    for try await item in ChunkedBody.stream(chunks).jsonLines(of: Item.self) { items.append(item) }
    return items
  }

  static func decode(_ text: String) async throws -> [Item] {
    try await decode([ChunkedBody.bytes(text)])
  }

  @Test func oneValuePerLineAndBlankLinesAreSkipped() async throws {
    let text = "{\"id\":1}\n\n  \t\r\n{\"id\":2}\r\n\n{\"id\":3}"
    #expect(try await Self.decode(text) == [Item(id: 1), Item(id: 2), Item(id: 3)])
  }

  @Test func everyCutInTwoGivesTheSameValues() async throws {
    let data = ChunkedBody.bytes("{\"id\":1}\r\n\n{ \"id\" : 22 }\n{\"id\":3}\n")
    for chunks in ChunkedBody.twoPieces(data) {
      #expect(try await Self.decode(chunks) == [Item(id: 1), Item(id: 22), Item(id: 3)])
    }
  }

  @Test func aLineThatDoesNotDecodeIsNamedCountingBlankLines() async throws {
    let text = "{\"id\":1}\n\n{\"id\":\"x\"}\n{\"id\":4}\n"
    let error = try await #require(throws: JSONLinesDecodingError.self) {
      try await Self.decode(text)
    }
    #expect(error.line == 3)
    #expect(error.failure.reason == .typeMismatch)
    #expect(error.failure.codingPath == "id")
    #expect(error.failure.responseType == "Item")
    #expect(error.description.hasPrefix("Line 3 of the JSON Lines stream did not decode:"))
  }

  @Test func aLineThatIsNotJSONIsNamed() async throws {
    let error = try await #require(throws: JSONLinesDecodingError.self) {
      try await Self.decode("{\"id\":1}\n{\n")
    }
    #expect(error.line == 2)
    #expect(error.failure.reason == .dataCorrupted)
  }

  @Test func aMissingKeyIsNamed() async throws {
    let error = try await #require(throws: JSONLinesDecodingError.self) {
      try await Self.decode("{\"name\":\"x\"}")
    }
    #expect(error.line == 1)
    #expect(error.failure.reason == .keyNotFound)
    #expect(error.failure.codingPath == "id")
  }

  @Test func theGivenDecoderIsUsed() async throws {
    struct Place: Decodable, Equatable { var placeName: String }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let body = ChunkedBody.stream([ChunkedBody.bytes("{\"place_name\":\"Bern\"}\n")])
    var places: [Place] = []
    for try await place in body.jsonLines(of: Place.self, decoder: decoder) { places.append(place) }
    #expect(places == [Place(placeName: "Bern")])
  }

  @Test func lineErrorsPassThroughUnchanged() async throws {
    var data = ChunkedBody.bytes("{\"id\":1}\n\"")
    data.append(0xFF)
    data.append(contentsOf: ChunkedBody.bytes("\"\n"))
    await #expect(throws: StreamFormatError.invalidUTF8(line: 2)) {
      try await Self.decode([data])
    }
  }

  @Test func anOverlongLineIsRejected() async throws {
    let body = ChunkedBody.stream([ChunkedBody.bytes("{\"id\":1}\n{\"id\":123456}\n")])
    var iterator = JSONLines<_, Item>(body, maximumLineLength: 10).makeAsyncIterator()
    #expect(try await iterator.next() == Item(id: 1))
    await #expect(throws: StreamFormatError.lineTooLong(line: 2, limit: 10)) {
      try await iterator.next()
    }
  }

  @Test func theBodysErrorReachesTheLoop() async throws {
    let body = ChunkedBody.failing([ChunkedBody.bytes("{\"id\":1}\n")], with: ChunkedBody.Failed())
    var iterator = body.jsonLines(of: Item.self).makeAsyncIterator()
    #expect(try await iterator.next() == Item(id: 1))
    await #expect(throws: ChunkedBody.Failed()) { try await iterator.next() }
  }

  @Test func valuesOfASendableBodyAreSendable() {
    let values: any Sendable = ChunkedBody.stream([]).jsonLines(of: Item.self)
    #expect(values is JSONLines<AsyncStream<Data>, Item>)
  }
}
