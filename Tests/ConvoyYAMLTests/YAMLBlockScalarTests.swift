import ConvoyYAML
import Testing

@Suite struct YAMLBlockScalarTests {
  @Test func literalKeepsLineBreaksAndExtraIndentation() {
    let text = "a: |\n  line one\n    indented\n\n  last\nb: 1"
    #expect(parse(text)?["a"] == .string("line one\n  indented\n\nlast\n"))
    #expect(parse(text)?["b"] == .integer(1))
  }

  @Test func foldedJoinsLinesAndKeepsParagraphs() {
    let text = "a: >\n  one\n  two\n\n  three\n    code\n  four\n"
    #expect(parse(text)?["a"] == .string("one two\nthree\n  code\nfour\n"))
  }

  @Test(arguments: [
    ("|", "text\n"), ("|-", "text"), ("|+", "text\n\n\n"),
    (">", "text\n"), (">-", "text"), (">+", "text\n\n\n"),
  ])
  func chompingIndicatorsDecideTheTrailingBreaks(header: String, expected: String) {
    #expect(parse("a: \(header)\n  text\n\n\nb: 1")?["a"] == .string(expected))
  }

  @Test func anIndentationIndicatorKeepsLeadingSpaces() {
    #expect(parse("a: |2\n    four spaces\n  two\n")?["a"] == .string("  four spaces\ntwo\n"))
    #expect(parse("a: |-2\n   x")?["a"] == .string(" x"))
  }

  @Test func blockScalarsWorkInSequencesAndAtTheTop() {
    #expect(parse("- |\n  a\n- >-\n  b\n  c") == .array([.string("a\n"), .string("b c")]))
    #expect(parse("--- |\nroot\ntext\n") == .string("root\ntext\n"))
  }

  @Test func anEmptyBlockScalarIsEmptyText() {
    #expect(parse("a: |\nb: 1") == map(["a": .string(""), "b": .integer(1)]))
  }

  @Test func aCommentMayFollowTheHeader() {
    #expect(parse("a: | # note\n  x\n")?["a"] == .string("x\n"))
  }

  @Test func hashesInsideBlockScalarsAreText() {
    #expect(parse("a: |\n  # not a comment\n  x")?["a"] == .string("# not a comment\nx"))
  }

  @Test func aLastLineWithoutABreakIsClippedToNone() {
    #expect(parse("a: |\n  x")?["a"] == .string("x"))
  }
}
