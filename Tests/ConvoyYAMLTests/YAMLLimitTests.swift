import ConvoyYAML
import Testing

@Suite struct YAMLLimitTests {
  @Test func deeplyNestedFlowCollectionsStopAtTheLimit() {
    let text = String(repeating: "[", count: 100_000)
    #expect(parseError(text)?.reason == .nestingTooDeep(limit: 200))
  }

  @Test func deeplyNestedBlockCollectionsStopAtTheLimit() {
    var text = ""
    for level in 0..<300 { text += String(repeating: " ", count: level) + "k:\n" }
    let error = parseError(text)
    #expect(error?.reason == .nestingTooDeep(limit: 200))
    #expect(error?.line == 201)
  }

  @Test func nestingWithinTheLimitParses() {
    let text = String(repeating: "[", count: 150) + String(repeating: "]", count: 150)
    #expect((try? YAML.parse(text)) != nil)
  }

  @Test func aBillionLaughsStopsAtTheAliasLimit() {
    var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for level in 1..<10 {
      let items = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      text += "a\(level): &a\(level) [\(items)]\n"
    }
    let error = parseError(text)
    #expect(error?.reason == .tooManyAliasedNodes(limit: 1_000_000))
  }

  @Test func theAliasLimitCanBeLowered() {
    let text = "a: &a [1, 2, 3]\nb: [*a, *a]"
    #expect(
      parseError(text, limits: YAMLLimits(maximumAliasedNodes: 5))?.reason
        == .tooManyAliasedNodes(limit: 5))
    #expect((try? YAML.parse(text, limits: YAMLLimits(maximumAliasedNodes: 8))) != nil)
  }

  @Test func hostileInputsFailWithoutCrashing() {
    let inputs = [
      "\"", "'", "[", "{", "{a", "[a,", "- [", "a: \"\\", "a: \"\\u", "&", "*", "a: &", "|", ">9",
      ":", "- - - -", "? ", "a:\n\t- b", String(repeating: "- ", count: 10_000) + "x",
      String(repeating: "{a: ", count: 5_000),
    ]
    for input in inputs {
      _ = try? YAML.parse(input)
    }
  }
}
