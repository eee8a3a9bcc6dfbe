import ConvoyYAML
import Testing

@Suite struct YAMLCollectionTests {
  @Test func nestedBlockMappingsAndSequences() {
    let text = """
      info:
        title: Articles
        tags:
          - news
          - swift
      servers:
      - url: http://127.0.0.1
        description: local
      - url: http://[::1]
      """
    let expected = map([
      "info": map([
        "title": .string("Articles"), "tags": .array([.string("news"), .string("swift")]),
      ]),
      "servers": .array([
        map(["url": .string("http://127.0.0.1"), "description": .string("local")]),
        map(["url": .string("http://[::1]")]),
      ]),
    ])
    #expect(parse(text) == expected)
  }

  @Test func mappingKeysKeepDocumentOrder() {
    let keys = parse("zeta: 1\nalpha: 2\nmid: 3")?.mapping?.keys
    #expect(keys == ["zeta", "alpha", "mid"])
  }

  @Test func sequencesNestCompactly() {
    #expect(
      parse("- - a\n  - b\n- - c")
        == .array([.array(["a", "b"].map(YAMLValue.string)), .array([.string("c")])]))
  }

  @Test func emptyEntriesAreNull() {
    #expect(parse("a:\nb:\n  c:\n") == map(["a": .null, "b": map(["c": .null])]))
    #expect(parse("-\n- x\n-") == .array([.null, .string("x"), .null]))
  }

  @Test func flowCollectionsNestAndSpanLines() {
    let text = """
      a: [1, two, "three", {x: 1, 'y': [ ]}]
      b: {
        k: v,   # a comment inside
        n: [a,
            b],
      }
      """
    let expected = map([
      "a": .array([
        .integer(1), .string("two"), .string("three"), map(["x": .integer(1), "y": .array([])]),
      ]),
      "b": map(["k": .string("v"), "n": .array([.string("a"), .string("b")])]),
    ])
    #expect(parse(text) == expected)
  }

  @Test func flowEntriesMayBeSinglePairsOrKeysWithoutValues() {
    #expect(parse("[a: 1, b]") == .array([map(["a": .integer(1)]), .string("b")]))
    #expect(parse("{a, b: }") == map(["a": .null, "b": .null]))
  }

  @Test func jsonDocumentsParse() {
    let json = """
      {"openapi":"3.1.0","paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}},
       "list":[1,2.5,-3e2,true,false,null],"empty":{},"esc":"a\\"b"}
      """
    let value = parse(json)
    #expect(value?["openapi"] == .string("3.1.0"))
    #expect(value?["paths"]?["/a"]?["get"]?["responses"]?["200"]?["description"] == .string("ok"))
    #expect(
      value?["list"]
        == .array([.integer(1), .double(2.5), .double(-300), .bool(true), .bool(false), .null]))
    #expect(value?["empty"] == .mapping(YAMLMapping()))
    #expect(value?["esc"] == .string("a\"b"))
  }

  @Test func anchorsAndAliasesRepeatNodes() {
    let text = """
      base: &base
        type: string
        maxLength: 10
      copy: *base
      list: [&one 1, *one]
      """
    let value = parse(text)
    #expect(value?["copy"] == value?["base"])
    #expect(value?["list"] == .array([.integer(1), .integer(1)]))
  }

  @Test func anAnchorOnAKeyLineNamesTheKey() {
    let value = parse("- &k name: x\n- *k")
    #expect(value == .array([map(["name": .string("x")]), .string("name")]))
  }

  @Test func mergeKeysYieldToExplicitKeys() {
    let text = """
      defaults: &d {a: 1, b: 2}
      item:
        b: 3
        <<: *d
        c: 4
      """
    #expect(parse(text)?["item"] == map(["b": .integer(3), "a": .integer(1), "c": .integer(4)]))
  }

  @Test func onlyAPlainLessLessIsAMergeKey() {
    // Quoted, it is a key like any other, in block and flow mappings alike.
    #expect(parse("\"<<\": 1\n") == map(["<<": .integer(1)]))
    #expect(parse("{'<<': 1, a: 2}") == map(["<<": .integer(1), "a": .integer(2)]))
    // Plain, it merges, also as the single pair of a mapping inside a flow sequence.
    #expect(parse("[<<: {a: 1}]") == .array([map(["a": .integer(1)])]))
    #expect(parseError("[<<: 1, 2]") != nil)
    // Found by FuzzYAML: the pair was kept as a "<<" key, which did not read back the same.
    #expect(parseError("a: &a [  <<: 1, 2, {b: c}]\nb: *a\n") != nil)
  }

  @Test func documentMarkersAndDirectivesAreAccepted() {
    #expect(parse("%YAML 1.2\n---\na: 1\n...\n") == map(["a": .integer(1)]))
    #expect(parse("--- # start\n- x\n") == .array([.string("x")]))
    #expect(parse("--- text") == .string("text"))
  }

  @Test func crlfLineBreaksAndAByteOrderMarkAreAccepted() {
    #expect(
      parse("\u{FEFF}a: 1\r\nb:\r\n  - x\r\n")
        == map(["a": .integer(1), "b": .array([.string("x")])]))
  }

  @Test func tabsMaySeparateValuesOnALine() {
    #expect(
      parse("a:\t1\nb: [x,\tz]")
        == map(["a": .integer(1), "b": .array([.string("x"), .string("z")])]))
  }

  @Test func commentsAreIgnoredEverywhere() {
    let text = """
      # header
      a: 1 # trailing
        # indented comment
      b:
        # before a nested key
        c: 2
      """
    #expect(parse(text) == map(["a": .integer(1), "b": map(["c": .integer(2)])]))
  }

  @Test func quotedKeysMayTouchTheirColon() {
    #expect(parse("\"a\":1\n'b': 2") == map(["a": .integer(1), "b": .integer(2)]))
  }

  @Test func mappingSubscriptsEditInPlace() {
    var mapping = YAMLMapping([("a", .integer(1)), ("b", .integer(2))])
    mapping["a"] = nil
    mapping["c"] = .null
    #expect(mapping.keys == ["b", "c"])
    #expect(mapping.map(\.key) == ["b", "c"])
    #expect(mapping.contains("c"))
  }
}
