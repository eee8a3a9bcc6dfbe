// `Retry-After` (RFC 9110 §10.2.3): seconds or an HTTP date. Checks: no crash; a delay is never
// negative nor NaN; digits give exactly their number.
import Foundation

@testable import Convoy

private let now = Date(timeIntervalSince1970: 1_800_000_000)

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  if let delay = RetryAfter.delay(from: text, now: now) {
    precondition(delay >= 0, "a negative delay")
    precondition(!delay.isNaN, "a delay that is not a number")
  }
  let trimmed = text.trimmingCharacters(in: .whitespaces)
  if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
    precondition(RetryAfter.delay(from: text, now: now) == TimeInterval(trimmed), "digits misread")
  }
  return 0
}
