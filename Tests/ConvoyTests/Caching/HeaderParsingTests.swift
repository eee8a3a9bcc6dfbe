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

  // Found while writing the fuzz target FuzzCacheHeaders (issue #27): the day count overflowed
  // and trapped. Expires, Retry-After and cookie dates all read dates this way.
  @Test(arguments: [
    "1 Jan 9223372036854775807 00:00:00 GMT", "Sun, 06 Nov -9223372036854775807 08:49:37 GMT",
    "Nov 6 08:49:37 99999", "Sun, 06 Nov 10000 08:49:37 GMT",
  ])
  func yearsBeyondFourDigitsAreNoDate(text: String) {
    #expect(HTTPDate.parse(text) == nil)
  }

  @Test func theLastFourDigitYearStillParses() {
    #expect(
      HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT")
        == Date(timeIntervalSince1970: 253_402_300_799))
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

  @Test func leadingZerosDoNotShortenADeltaSeconds() {
    #expect(CacheControl("max-age=00000000060").maxAge == 60)
    #expect(CacheControl("max-age=0").maxAge == 0)
  }

  // Found while widening FuzzCacheHeaders to serve what it stores (issue #27): `Age: 1e300` was
  // read as a number, and serving the stored answer turned its age into an Int and trapped.
  @Test(arguments: ["1e300", "inf", "-5", "0x10", "nan", " 12 "])
  func anAgeThatIsNoDeltaSecondsIsIgnoredAndServingNeverTraps(age: String) {
    let url = URL(string: "https://example.com/a")!
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let entry = CacheEntry(
      key: CacheEntry.key(method: .get, url: url), url: url, statusCode: 200,
      headers: ["Cache-Control": "max-age=60", "Age": age], body: Data(), requestDate: now,
      responseDate: now, varyingRequestHeaders: [:])
    let expected: TimeInterval = age == " 12 " ? 12 : 0
    #expect(entry.currentAge(now: now) == expected)
    let metrics = TransferMetrics(startDate: now, duration: 0, bytesReceived: 0, bytesSent: 0)
    let served = entry.transportResponse(age: entry.currentAge(now: now), metrics: metrics)
    #expect(served.headers["Age"] == String(Int(expected)))
  }

  @Test func aHugeAgeIsServedAsTwoToTheThirtyFirst() {
    let url = URL(string: "https://example.com/a")!
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let entry = CacheEntry(
      key: CacheEntry.key(method: .get, url: url), url: url, statusCode: 200,
      headers: ["Age": "99999999999999999999999"], body: Data(), requestDate: now,
      responseDate: now, varyingRequestHeaders: [:])
    let metrics = TransferMetrics(startDate: now, duration: 0, bytesReceived: 0, bytesSent: 0)
    #expect(entry.currentAge(now: now) == 2_147_483_648)
    #expect(
      entry.transportResponse(age: .infinity, metrics: metrics).headers["Age"] == "2147483648")
  }
}
