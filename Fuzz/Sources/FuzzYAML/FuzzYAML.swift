import ConvoyYAML
// YAML (ConvoyYAML), as OpenAPI documents reach it. Checks: no crash; hostile nesting and
// aliases stop at the limits with their typed error; and a document that parses reads the same
// when written back in flow form and in block form (`YAMLWriter`).
import Foundation

private let limits = YAMLLimits(maximumDepth: 40, maximumAliasedNodes: 10_000)

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(UnsafeBufferPointer(start: start, count: count))
  let value: YAMLValue
  do {
    value = try YAML.parse(data, limits: limits)
  } catch {
    precondition(error.line >= 1 && error.column >= 1, "an error without a place")
    _ = error.description
    return 0
  }
  let flow = YAMLWriter.flow(value)
  let block = YAMLWriter.block(value)
  for (form, text) in [("flow", flow), ("block", block)] {
    do {
      let again = try YAML.parse(text, limits: YAMLLimits(maximumDepth: 200))
      precondition(same(again, value), "the \(form) form reads differently:\n\(text)")
    } catch {
      fatalError("the \(form) form does not parse (\(error)):\n\(text)")
    }
  }
  return 0
}

/// Equality in which NaN equals NaN, as a document written twice should.
private func same(_ lhs: YAMLValue, _ rhs: YAMLValue) -> Bool {
  switch (lhs, rhs) {
  case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
  case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy(same)
  case (.mapping(let a), .mapping(let b)):
    a.keys == b.keys && a.keys.allSatisfy { key in same(a[key]!, b[key]!) }
  default: lhs == rhs
  }
}
