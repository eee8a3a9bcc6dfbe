import Foundation
import Testing

@testable import Convoy

@Suite struct CookieJarTests {
  private let page = URL(string: "https://shop.example.com/account/orders")!
  private let now = Date(timeIntervalSince1970: 1_800_000_000)

  private func jar(_ fields: String..., from url: URL? = nil) -> CookieJar {
    let jar = CookieJar()
    jar.store(setCookieFields: fields, from: url ?? page, now: now)
    return jar
  }

  @Test func aHostOnlyCookieGoesToItsHostAlone() {
    let jar = jar("id=1")
    #expect(jar.cookieHeader(for: page, now: now) == "id=1")
    #expect(
      jar.cookieHeader(for: URL(string: "https://www.shop.example.com/account/x")!, now: now) == nil
    )
    #expect(jar.cookies.first?.isHostOnly == true)
  }

  @Test func aDomainCookieGoesToSubdomainsButNeverToAnotherDomain() {
    let jar = jar("id=1; Domain=.example.com; Path=/")
    #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/")!, now: now) == "id=1")
    #expect(jar.cookieHeader(for: URL(string: "https://example.com/")!, now: now) == "id=1")
    #expect(jar.cookieHeader(for: URL(string: "https://badexample.com/")!, now: now) == nil)
    #expect(self.jar("id=1; Domain=other.com").cookies.isEmpty)
  }

  @Test func aPublicSuffixGetsNoCookie() {
    #expect(jar("id=1; Domain=com").cookies.isEmpty)
    let uk = URL(string: "https://shop.example.co.uk/")!
    #expect(jar("id=1; Domain=co.uk", from: uk).cookies.isEmpty)
    #expect(jar("id=1; Domain=example.co.uk", from: uk).cookies.count == 1)
  }

  @Test func pathsMatchAtSlashBoundariesAndDefaultToTheDirectory() {
    let jar = jar("a=1", "b=2; Path=/account/orders/2024", "c=3; Path=/")
    #expect(
      jar.cookieHeader(for: URL(string: "https://shop.example.com/accounts")!, now: now) == "c=3")
    #expect(
      jar.cookieHeader(
        for: URL(string: "https://shop.example.com/account/orders/2024/7")!, now: now)
        == "b=2; a=1; c=3")
  }

  @Test func aSecureCookieTravelsOnlyOverHTTPSAndIsSetOnlyFromIt() {
    let jar = jar("id=1; Secure; HttpOnly; SameSite=Strict")
    #expect(
      jar.cookieHeader(for: URL(string: "http://shop.example.com/account/x")!, now: now) == nil)
    let cookie = jar.cookies.first
    #expect(cookie?.isSecure == true && cookie?.isHTTPOnly == true && cookie?.sameSite == "Strict")
    #expect(
      self.jar("id=1; Secure", from: URL(string: "http://shop.example.com/")!).cookies.isEmpty)
  }

  @Test func maxAgeWinsOverExpiresAndAPastDateDeletes() {
    let jar = jar("id=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(jar.cookies.first?.expires == now.addingTimeInterval(60))
    #expect(jar.cookieHeader(for: page, now: now.addingTimeInterval(61)) == nil)
    jar.store(
      setCookieFields: ["id=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: page, now: now)
    #expect(jar.cookies.isEmpty)
  }

  @Test func limitsSizeAndCount() {
    let limited = CookieJar(limits: CookieJar.Limits(bytesPerCookie: 16, cookiesPerDomain: 2))
    limited.store(
      setCookieFields: ["big=" + String(repeating: "x", count: 64), "a=1", "b=2", "c=3"],
      from: page, now: now)
    #expect(limited.cookies.map(\.name).sorted() == ["b", "c"])
  }

  @Test func splitsSetCookieFieldsATransportJoined() {
    let joined = "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/, b=2; Path=/"
    #expect(SetCookieParser.fields([joined]).count == 2)
    #expect(jar(joined).cookieHeader(for: page, now: now) == "a=1; b=2")
  }

  @Test func keepsPersistentCookiesInAPrivateFileAndSessionCookiesInMemory() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-cookies-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let jar = CookieJar(file: file)
    jar.store(setCookieFields: ["kept=1; Max-Age=3600", "session=2"], from: page)
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    #expect(CookieJar(file: file).cookies.map(\.name) == ["kept"])
    jar.removeAll()
    #expect(CookieJar(file: file).cookies.isEmpty)
  }

  @Test func describesACookieWithoutItsValue() {
    #expect(!String(describing: jar("id=secret-value").cookies[0]).contains("secret-value"))
  }
}
