// The OpenAPI document reader and generator (ConvoyOpenAPIKit), which runs at build time on
// documents that may come from a server. Checks: no crash, no hang; a document is either
// generated or refused with a `GeneratorError`, and generating twice gives the same files.
import Foundation
import OpenAPIKit

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  guard let output = try? OpenAPIGenerator.generate(text) else { return 0 }
  let again = try? OpenAPIGenerator.generate(text)
  precondition(again?.files.map(\.contents) == output.files.map(\.contents), "not deterministic")
  return 0
}
