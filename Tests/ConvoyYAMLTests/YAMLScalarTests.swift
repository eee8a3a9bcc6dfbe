import ConvoyYAML
import Testing

@Suite struct YAMLScalarTests {
  @Test(arguments: [
    ("a: ~", YAMLValue.null), ("a: null", .null), ("a:", .null), ("a: NULL", .null),
    ("a: true", .bool(true)), ("a: False", .bool(false)), ("a: 42", .integer(42)),
    ("a: -7", .integer(-7)), ("a: +3", .integer(3)), ("a: 0x1F", .integer(31)),
    ("a: 0o17", .integer(15)), ("a: 1.5", .double(1.5)), ("a: -2.5e3", .double(-2500)),
    ("a: .5", .double(0.5)), ("a: .inf", .double(.infinity)), ("a: -.Inf", .double(-.infinity)),
    ("a: 3.0.1", .string("3.0.1")), ("a: yes", .string("yes")), ("a: 1e", .string("1e")),
    ("a: 12abc", .string("12abc")), ("a: 99999999999999999999", .double(1e20)),
  ])
  func plainScalarsResolveByTheCoreSchema(text: String, expected: YAMLValue) {
    #expect(parse(text)?["a"] == expected)
  }

  @Test func notANumberResolvesToNaN() {
    #expect(parse("a: .nan")?["a"]?.double?.isNaN == true)
  }

  @Test func quotedScalarsAreAlwaysStrings() {
    let value = parse("a: '42'\nb: \"true\"\nc: 'null'")
    #expect(value?["a"] == .string("42"))
    #expect(value?["b"] == .string("true"))
    #expect(value?["c"] == .string("null"))
  }

  @Test func plainScalarsKeepColonsAndHashesThatAreNotIndicators() {
    let value = parse("url: http://example.com/a#frag\ntime: 12:30\nkey:value: x")
    #expect(value?["url"] == .string("http://example.com/a#frag"))
    #expect(value?["time"] == .string("12:30"))
    #expect(value?["key:value"] == .string("x"))
  }

  @Test func aCommentEndsAPlainScalar() {
    #expect(parse("a: text # note\nb: 1")?["a"] == .string("text"))
  }

  @Test func plainScalarsFoldOverContinuationLines() {
    let value = parse("a: first\n  second\n\n  third\nb: 1")
    #expect(value?["a"] == .string("first second\nthird"))
    #expect(value?["b"] == .integer(1))
  }

  @Test func singleQuotesEscapeByDoubling() {
    #expect(parse("a: 'it''s'")?["a"] == .string("it's"))
  }

  @Test func singleQuotedScalarsFoldLineBreaks() {
    #expect(parse("a: 'one\n   two\n\n   three'")?["a"] == .string("one two\nthree"))
  }

  @Test func doubleQuotedEscapesAreDecoded() {
    let text = #"a: "tab\there\nnew \"q\" \\ \/ \x41 \u00e9 \U0001F600 \0 \e \N \_ \L \P""#
    let expected = "tab\there\nnew \"q\" \\ / A é 😀 \u{0} \u{1B} \u{85} \u{A0} \u{2028} \u{2029}"
    #expect(parse(text)?["a"] == .string(expected))
  }

  @Test func jsonSurrogatePairsBecomeOneCharacter() {
    #expect(parse(#"{"a": "\ud83d\ude00"}"#)?["a"] == .string("😀"))
  }

  @Test func doubleQuotedLineBreaksFoldAndEscapedBreaksJoin() {
    #expect(parse("a: \"one  \n  two\n\n  three\"")?["a"] == .string("one two\nthree"))
    #expect(parse("a: \"con\\\n   cat\"")?["a"] == .string("concat"))
  }

  @Test func escapedSpacesBeforeALineBreakAreKept() {
    #expect(parse("a: \"x\\t\n y\"")?["a"] == .string("x\t y"))
  }

  @Test func leadingAndTrailingSpacesInsideQuotesAreKept() {
    #expect(parse("a: '  padded  '")?["a"] == .string("  padded  "))
  }

  @Test func numericKeysKeepTheirText() {
    let responses = parse("200:\n  description: OK\n0x10: hex")
    #expect(responses?["200"]?["description"] == .string("OK"))
    #expect(responses?["0x10"] == .string("hex"))
  }

  @Test func unicodeTextSurvives() {
    #expect(parse("name: Zürich — 東京")?["name"] == .string("Zürich — 東京"))
  }

  @Test func aDocumentMayBeASingleScalar() {
    #expect(parse("just text") == .string("just text"))
    #expect(parse("") == .null)
    #expect(parse("# only a comment\n") == .null)
  }

  @Test func scalarTextPrintsScalarsTheWayTheyRead() {
    #expect(YAMLValue.integer(3).scalarText == "3")
    #expect(YAMLValue.double(1.5).scalarText == "1.5")
    #expect(YAMLValue.bool(true).scalarText == "true")
    #expect(YAMLValue.array([]).scalarText == nil)
  }
}
