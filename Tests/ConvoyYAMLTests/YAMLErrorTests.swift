import ConvoyYAML
import Foundation
import Testing

@Suite struct YAMLErrorTests {
  @Test func tabIndentationIsReportedAtTheTab() {
    let error = parseError("a:\n\tb: 1")
    #expect(error?.reason == .tabIndentation)
    #expect(error?.line == 2)
    #expect(error?.column == 1)
  }

  @Test func aMappingOnItsKeysLineIsRejected() {
    let error = parseError("a: b: c")
    #expect(error?.reason == .blockCollectionNotAllowedHere)
    #expect(error?.line == 1)
    #expect(error?.column == 4)
  }

  @Test func aSequenceOnItsKeysLineIsRejected() {
    #expect(parseError("a: - b")?.reason == .blockCollectionNotAllowedHere)
  }

  @Test func badIndentationIsReportedOnItsLine() {
    let error = parseError("a:\n    b: 1\n  c: 2")
    #expect(error?.reason == .badIndentation)
    #expect(error?.line == 3)
    #expect(error?.column == 3)
  }

  @Test func duplicateKeysAreReportedAtTheSecond() {
    let error = parseError("a: 1\nb: 2\na: 3")
    #expect(error?.reason == .duplicateKey("a"))
    #expect(error?.line == 3)
    #expect(error?.column == 1)
    #expect(parseError("{x: 1, x: 2}")?.reason == .duplicateKey("x"))
  }

  @Test func unterminatedQuotesPointAtTheOpeningQuote() {
    let error = parseError("a: 1\nb: \"open\n")
    #expect(error?.reason == .unterminatedScalar)
    #expect(error?.line == 2)
    #expect(error?.column == 4)
    #expect(parseError("a: 'x")?.reason == .unterminatedScalar)
  }

  @Test func unterminatedFlowCollectionsPointAtTheBracket() {
    let error = parseError("a:\n  b: [1, 2")
    #expect(error?.reason == .unterminatedFlowCollection)
    #expect(error?.line == 2)
    #expect(error?.column == 6)
  }

  @Test func missingSeparatorsInFlowCollectionsAreNamed() {
    #expect(parse("[a b]") == .array([.string("a b")]))
    #expect(parseError("{a: 1 b: 2}")?.reason == .expectedSeparator("',' or '}'"))
    #expect(parseError("[\"a\" \"b\"]")?.reason == .expectedSeparator("',' or ']'"))
  }

  @Test func columnsCountCharactersNotBytes() {
    let error = parseError("é: ü: x")
    #expect(error?.column == 4)
  }

  @Test(arguments: [
    ("a: !!str 1", "a tag ('!')"), ("? complex\n: value", "a complex mapping key ('? ')"),
    ("[1]: x", "a flow collection as a mapping key"),
    ("a: 1\n---\nb: 2", "more than one document in a stream"),
    ("%TAG ! tag:x\n---\na", "the directive %TAG"),
    ("x: &a 1\n*a : 2", "an alias as a mapping key"),
    ("{[a]: 1}", "a collection or alias as a mapping key"),
  ])
  func unsupportedConstructsAreNamed(text: String, feature: String) {
    #expect(parseError(text)?.reason == .unsupported(feature))
  }

  @Test func invalidEscapesAreReported() {
    #expect(parseError(#"a: "\q""#)?.reason == .invalidEscape("q"))
    #expect(parseError(#"a: "\u12G4""#) != nil)
    #expect(parseError(#"a: "\ud800x""#) != nil)
  }

  @Test func undefinedAliasesAreReported() {
    #expect(parseError("a: *nowhere")?.reason == .undefinedAlias("nowhere"))
  }

  @Test func multilineImplicitKeysAreRejected() {
    #expect(parseError("- a\n  b: 1")?.reason == .multilineKey)
  }

  @Test func textAfterAFlowCollectionIsUnexpected() {
    #expect(parseError("a: [1] x")?.reason == .unexpectedContent("\"x\""))
  }

  @Test func invalidBlockScalarHeadersAreReported() {
    #expect(parseError("a: |x\n  b")?.reason == .invalidBlockScalarHeader)
    #expect(parseError("a: |0\n  b")?.reason == .invalidBlockScalarHeader)
  }

  @Test func reservedIndicatorsCannotStartAPlainScalar() {
    #expect(parseError("a: @x") != nil)
    #expect(parseError("a: `x") != nil)
  }

  @Test func invalidUTF8IsReported() {
    #expect(throws: YAMLError(.invalidUTF8, line: 1, column: 1)) {
      try YAML.parse(Data([0x61, 0x3A, 0x20, 0xFF]))
    }
  }

  @Test func errorsDescribeThemselvesWithTheirPosition() {
    #expect(parseError("a: 1\nb: [")?.description.hasPrefix("2:") == true)
    #expect(
      YAMLError(.tabIndentation, line: 3, column: 5).description
        == "3:5: tabs cannot indent YAML; use spaces")
  }
}
