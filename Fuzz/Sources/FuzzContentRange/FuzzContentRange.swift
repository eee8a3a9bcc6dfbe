// `Content-Range` of a `206` answer (RFC 9110 §14.4), which resumed downloads trust to append
// at the right offset. Checks: no crash; an accepted range is ordered and inside its total, and
// writing it back in the RFC's form reads the same range.
@testable import Convoy

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  guard let range = ContentRange(text) else { return 0 }
  precondition(range.first >= 0, "a negative first byte")
  precondition(range.first <= range.last, "a range that ends before it starts")
  if let total = range.total { precondition(range.last < total, "a range past its total") }
  let written = "bytes \(range.first)-\(range.last)/\(range.total.map(String.init) ?? "*")"
  precondition(ContentRange(written) == range, "write → read changed the range")
  return 0
}
