// The curl transport's response head: the status line and header fields, fed line by line as
// libcurl's header callback delivers them. Checks: no crash, the status code is what the
// digits say (0 for anything else) and never more than nine digits, and the header limits hold.
#if os(Linux)
  @testable import Convoy

  /// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let limits = ResponseLimits(maximumHeaderFieldCount: 64, maximumHeadSize: 4096)
    var head = CurlResponseHead(limits: limits)
    var lineStart = 0
    var completed = false
    for index in 0..<count where bytes[index] == UInt8(ascii: "\n") && !completed {
      completed = head.add(line: UnsafeBufferPointer(rebasing: bytes[lineStart...index]))
      lineStart = index + 1
    }
    precondition((0...999_999_999).contains(head.statusCode), "status out of range")
    precondition(!completed || head.statusCode >= 200, "an interim head completed the answer")
    precondition(
      head.headers.fields.count <= limits.maximumHeaderFieldCount, "too many fields kept")
    if head.exceededLimit != nil {
      precondition(!completed, "a head over its limits completed")
    }
    _ = head.announcedBodyLength
    return 0
  }
#else
  /// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt { 0 }
#endif
