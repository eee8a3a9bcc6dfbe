import Foundation
import Testing

@testable import Convoy

/// Cookie name prefixes (RFC 6265bis §4.1.3): a cookie whose name promises `Secure`, or a
/// host-only root cookie, is refused when its attributes break the promise.
@Suite struct CookiePrefixTests {
  private static let page = URL(string: "https://shop.example.com/account/orders")!
  private static let now = Date(timeIntervalSince1970: 1_800_000_000)

  private func stored(_ field: String, from url: URL = page) -> [Cookie] {
    let jar = CookieJar()
    jar.store(setCookieFields: [field], from: url, now: Self.now)
    return jar.cookies
  }

  @Test(arguments: [
    "__Secure-id=1", "__Secure-id=1; Path=/", "__secure-id=1; HttpOnly",
    "__SECURE-id=1; Domain=example.com",
  ])
  func aSecurePrefixedCookieWithoutSecureIsRefused(field: String) {
    #expect(stored(field).isEmpty, "\(field)")
  }

  @Test func aSecurePrefixedCookieWithSecureIsKept() {
    #expect(stored("__Secure-id=1; Secure; Domain=example.com; Path=/account").count == 1)
  }

  @Test(arguments: [
    "__Host-id=1; Path=/",  // no Secure
    "__Host-id=1; Secure",  // no Path=/
    "__Host-id=1; Secure; Path=/account",  // another path
    "__Host-id=1; Secure; Path=/; Domain=example.com",  // a Domain
    "__Host-id=1; Secure; Path=/; Domain=shop.example.com",  // even its own host
    "__host-id=1; Path=/; Domain=example.com",  // any case
  ])
  func aHostPrefixedCookieThatIsNotSecureHostOnlyAndRootIsRefused(field: String) {
    #expect(stored(field).isEmpty, "\(field)")
  }

  @Test func aHostPrefixedCookieThatIsSecureHostOnlyAndRootIsKept() {
    let cookies = stored("__Host-id=1; Secure; Path=/; HttpOnly")
    #expect(cookies.count == 1)
    #expect(cookies.first?.isHostOnly == true && cookies.first?.path == "/")
  }

  @Test func aRefusedPrefixedCookieLeavesTheOneAlreadyStored() {
    let jar = CookieJar()
    jar.store(setCookieFields: ["__Host-id=good; Secure; Path=/"], from: Self.page, now: Self.now)
    jar.store(
      setCookieFields: ["__Host-id=evil; Path=/", "__Secure-id=evil"], from: Self.page,
      now: Self.now)
    #expect(jar.cookies.map(\.value) == ["good"])
  }

  @Test func namesThatOnlyResembleAPrefixAreOrdinaryCookies() {
    #expect(stored("_Host-id=1").count == 1)
    #expect(stored("Host-id=1").count == 1)
    #expect(stored("x__Secure-id=1").count == 1)
  }
}
