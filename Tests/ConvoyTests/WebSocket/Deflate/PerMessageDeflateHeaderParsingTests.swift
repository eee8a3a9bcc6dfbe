import Testing

@testable import Convoy

/// ``WebSocketExtensionHeaderParser``: `Sec-WebSocket-Extensions` read by RFC 6455 §9.1's
/// grammar with RFC 7230's lists and quoted strings.
@Suite struct PerMessageDeflateHeaderParsingTests {
  typealias Element = WebSocketExtensionElement

  @Test func readsExtensionsAndTheirParametersInOrder() throws {
    let elements = try WebSocketExtensionHeaderParser.parse(
      "permessage-deflate; client_max_window_bits=10; server_no_context_takeover, x-other")
    #expect(
      elements == [
        Element(
          name: "permessage-deflate",
          parameters: [.init("client_max_window_bits", "10"), .init("server_no_context_takeover")]
        ),
        Element(name: "x-other"),
      ])
  }

  @Test func allowsWhitespaceAroundEverySeparatorAndEmptyListElements() throws {
    let elements = try WebSocketExtensionHeaderParser.parse(
      " ,\ta ;b = 1\t; c ,, d;e=\"2\" , ")
    #expect(
      elements == [
        Element(name: "a", parameters: [.init("b", "1"), .init("c")]),
        Element(name: "d", parameters: [.init("e", "2")]),
      ])
  }

  @Test func unquotesValuesAndResolvesEscapes() throws {
    let elements = try WebSocketExtensionHeaderParser.parse(#"a; b="15"; c="1\5""#)
    #expect(elements == [Element(name: "a", parameters: [.init("b", "15"), .init("c", "15")])])
  }

  @Test(arguments: ["", " ", ",", " , ,\t"])
  func readsNoExtensionFromAnEmptyList(value: String) throws {
    #expect(try WebSocketExtensionHeaderParser.parse(value).isEmpty)
  }

  @Test(arguments: [
    ("a;", 2), ("a; =1", 3), ("a; b=", 5), ("a b", 2), ("a; b=1 2", 7), ("a; b=c=d", 6),
    (";a", 0), ("a, ;b", 3), (#"a; b="1"#, 5), (#"a; b="""#, 5), (#"a; b="1 0""#, 5),
    (#"a; b="1,0""#, 5), (#"a; b="x\"y""#, 5), (#"a; b="1\"#, 5), ("a; b\u{0}=1", 4),
    ("permessage-deflate; client_max_window_bits=1\u{e9}", 44),
  ])
  func refusesWhatTheGrammarDoesNotAllowAndSaysWhere(value: String, position: Int) {
    #expect(throws: PerMessageDeflateNegotiationError.malformedHeader(position: position)) {
      try WebSocketExtensionHeaderParser.parse(value)
    }
  }

  @Test func writesAnElementAsAHeaderValue() {
    let element = Element(name: "a", parameters: [.init("b"), .init("c", "9")])
    #expect(element.headerValue == "a; b; c=9")
  }
}
