import Foundation
import Testing

@testable import Convoy

@Suite struct HeaderParsingTests {
  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
  ])
  func allThreeHTTPDateFormsParse(text: String) {
    #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
  }

  @Test(arguments: ["0", "-1", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT"])
  func invalidDatesAreNil(text: String) {
    #expect(HTTPDate.parse(text) == nil)
  }

  @Test func quotedCommasDoNotSplitCacheControl() {
    let control = CacheControl(#"private="X-A, X-B", max-age=5, max-age=9"#)
    #expect(control.maxAge == 5)
    #expect(control.contains("private"))
    #expect(!control.noStore)
  }

  @Test func anInvalidMaxAgeCountsAsZero() {
    #expect(CacheControl("max-age=soon").maxAge == 0)
    #expect(CacheControl("MAX-AGE=99999999999999").maxAge == 2_147_483_648)
  }
}
