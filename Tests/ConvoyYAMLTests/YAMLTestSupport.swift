import ConvoyYAML
import Testing

/// Parses `text`, failing the test with the parser's message when it throws.
func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> YAMLValue? {
  do {
    return try YAML.parse(text)
  } catch {
    Issue.record("\(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// The error `text` fails with, or `nil` (and a test failure) when it parses.
func parseError(
  _ text: String, limits: YAMLLimits = YAMLLimits(),
  sourceLocation: SourceLocation = #_sourceLocation
) -> YAMLError? {
  do {
    let value = try YAML.parse(text, limits: limits)
    Issue.record("parsed as \(value)", sourceLocation: sourceLocation)
    return nil
  } catch {
    return error
  }
}

/// A mapping value from literal entries, in order.
func map(_ entries: KeyValuePairs<String, YAMLValue>) -> YAMLValue {
  .mapping(YAMLMapping(entries.map { ($0.key, $0.value) }))
}
