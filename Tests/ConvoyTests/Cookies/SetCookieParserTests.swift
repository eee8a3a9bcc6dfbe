import Foundation
import Testing

@testable import Convoy

@Suite struct SetCookieParserTests {
  private let url = URL(string: "https://www.example.com/a/b")!
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// A delimiter followed by a combining mark is one Swift Character (`=\u{301}`); the field is
  /// cut at Unicode scalars, so the cookie is the one the bytes say. Found by `FuzzSetCookie`,
  /// whose input was read as another cookie once written back without the space after `=`.
  @Test func aCombiningMarkAfterADelimiterDoesNotHideIt() throws {
    let cookie = try #require(
      SetCookieParser.cookie(from: "id=\u{301}v; Max-Age=60;\u{301} Secure", for: url, now: now))
    #expect(cookie.name == "id")
    #expect(cookie.value == "\u{301}v")
    #expect(cookie.expires == now.addingTimeInterval(60))
    let again = try #require(
      SetCookieParser.cookie(from: "\(cookie.name)=\(cookie.value)", for: url, now: now))
    #expect(again.name == "id" && again.value == "\u{301}v")
  }
}
