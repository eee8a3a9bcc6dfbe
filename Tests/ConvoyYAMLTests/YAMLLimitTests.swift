import ConvoyYAML
import Foundation
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

  // Each hostile input has one right outcome: the typed error that names what is wrong, or,
  // for the few that are valid YAML, the value they mean. (It asserted nothing before issue #27.)
  @Test(
    arguments: [
      ("\"", .error(.unterminatedScalar)),
      ("'", .error(.unterminatedScalar)),
      ("[", .error(.unterminatedFlowCollection)),
      ("{", .error(.unterminatedFlowCollection)),
      ("{a", .error(.unterminatedFlowCollection)),
      ("[a,", .error(.unterminatedFlowCollection)),
      ("- [", .error(.unterminatedFlowCollection)),
      ("a: \"\\", .error(.unterminatedScalar)),
      ("a: \"\\u", .error(.invalidEscape("u"))),
      ("&", .error(.expectedValue)),
      ("*", .error(.expectedValue)),
      ("a: &", .error(.expectedValue)),
      ("|", .value(.string(""))),
      (">9", .value(.string(""))),
      (":", .error(.unexpectedContent("\":\""))),
      ("- - - -", .value(.array([.array([.array([.array([.null])])])]))),
      ("? ", .error(.unsupported("a complex mapping key ('? ')"))),
      ("a:\n\t- b", .error(.tabIndentation)),
      (String(repeating: "- ", count: 10_000) + "x", .error(.nestingTooDeep(limit: 200))),
      (String(repeating: "{a: ", count: 5_000), .error(.nestingTooDeep(limit: 200))),
    ] as [(String, HostileOutcome)])
  func hostileInputsFailWithTheirTypedError(input: String, expected: HostileOutcome) {
    let outcome: HostileOutcome
    do {
      outcome = .value(try YAML.parse(input))
    } catch {
      outcome = .error(error.reason)
    }
    #expect(outcome == expected, "\(input.prefix(20))")
  }

  @Test func aDocumentOverTheSizeLimitIsRefusedBeforeParsing() {
    let limits = YAMLLimits(maximumDocumentSize: 16)
    let text = "key: " + String(repeating: "x", count: 12)
    #expect(parseError(text, limits: limits)?.reason == .documentTooLarge(limit: 16))
    #expect(throws: YAMLError(.documentTooLarge(limit: 16), line: 1, column: 1)) {
      try YAML.parse(Data(text.utf8), limits: limits)
    }
    #expect(
      (try? YAML.parse("key: x", limits: limits)) == .mapping(YAMLMapping([("key", .string("x"))])))
  }
}

/// What parsing a hostile input should give.
enum HostileOutcome: Equatable, Sendable {
  case value(YAMLValue)
  case error(YAMLError.Reason)
}
