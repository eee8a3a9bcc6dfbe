import Testing

@testable import Convoy

/// The system zlib, found at run time, and the `z_stream` layout Convoy declares for it.
@Suite struct ZlibLibraryTests {
  @Test func loadsTheSystemZlibOfMajorVersionOne() throws {
    let zlib = try ZlibLibrary.shared.get()
    #expect(zlib.version.hasPrefix("1."))
    #expect(String(cString: zlib.initVersion) == zlib.version)
  }

  @Test func saysWhyZlibCannotBeUsedWhenTheLibraryIsMissing() {
    guard case .failure(let unavailable) = ZlibLibrary.load("libz-missing-for-convoy.so.1") else {
      Issue.record("a missing library loaded")
      return
    }
    #expect(unavailable.reason.hasPrefix("libz-missing-for-convoy.so.1 could not be loaded"))
  }

  @Test func saysWhichFunctionIsMissingFromALibraryThatIsNotZlib() throws {
    // libm is on every Linux and has no zlibVersion.
    #if os(Linux)
      guard case .failure(let unavailable) = ZlibLibrary.load("libm.so.6") else {
        Issue.record("libm passed for zlib")
        return
      }
      #expect(unavailable.reason == "libm.so.6 has no zlibVersion")
    #endif
  }

  /// The offsets `offsetof` gives for zlib.h's `z_stream` on LP64 (zlib 1.2.13, x86-64).
  @Test func declaresTheStreamWithZlibsLayout() throws {
    try #require(MemoryLayout<Int>.size == 8, "the offsets below are LP64's")
    #expect(MemoryLayout<ZStream>.size == 112)
    let offsets: [(PartialKeyPath<ZStream>, Int)] = [
      (\.nextIn, 0), (\.availIn, 8), (\.totalIn, 16), (\.nextOut, 24), (\.availOut, 32),
      (\.totalOut, 40), (\.message, 48), (\.state, 56), (\.allocate, 64), (\.free, 72),
      (\.opaque, 80), (\.dataType, 88), (\.adler, 96), (\.reserved, 104),
    ]
    for (field, offset) in offsets {
      #expect(MemoryLayout<ZStream>.offset(of: field) == offset, "\(field)")
    }
  }
}
