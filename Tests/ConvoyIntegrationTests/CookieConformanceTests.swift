import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Cookies are Convoy's, above the transport: every transport sends and keeps the same ones,
/// checked against httpbin's `/cookies` endpoints, whose `set` and `delete` answer with a redirect
/// to `/cookies`, which echoes the cookies it received.
@Suite("Cookie conformance", .timeLimit(.minutes(2)), .needs(.httpbin))
struct CookieConformanceTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aCookieSetByARedirectGoesWithTheNextHop(_ kind: TransportUnderTest) async throws {
    let jar = CookieJar()
    let connection = try connection(kind, jar: jar)
    let echo = try await cookies(connection, "/cookies/set", ["session": "abc", "theme": "dark"])
    #expect(echo == ["session": "abc", "theme": "dark"])
    #expect(try await cookies(connection, "/cookies") == ["session": "abc", "theme": "dark"])
    #expect(Set(jar.cookies.map(\.name)) == ["session", "theme"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCookieTheServerDeletesIsGone(_ kind: TransportUnderTest) async throws {
    let jar = CookieJar()
    let connection = try connection(kind, jar: jar)
    _ = try await cookies(connection, "/cookies/set", ["session": "abc", "theme": "dark"])
    let echo = try await cookies(connection, "/cookies/delete", ["session": ""])
    #expect(echo == ["theme": "dark"])
    #expect(jar.cookies.map(\.name) == ["theme"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aHostOnlyCookieNeverGoesToAnotherHost(_ kind: TransportUnderTest) async throws {
    let jar = CookieJar()
    _ = try await cookies(try connection(kind, jar: jar), "/cookies/set", ["session": "abc"])
    var configuration = ServerConfiguration.local(port: HTTPBin.other.port)
    configuration.baseURL = HTTPBin.other.baseURL
    let other = ServerConnection(
      configuration: configuration,
      transport: CookieTransport(wrapping: try kind.make(), jar: jar))
    #expect(try await cookies(other, "/cookies") == [:])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func withoutAJarNoCookieIsKeptOrSent(_ kind: TransportUnderTest) async throws {
    var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
    configuration.timeout = 300
    let connection = ServerConnection(configuration: configuration, transport: try kind.make())
    #expect(try await cookies(connection, "/cookies/set", ["session": "abc"]) == [:])
    #expect(try await cookies(connection, "/cookies") == [:])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aLogoutThatClearsCookiesSendsNoMore(_ kind: TransportUnderTest) async throws {
    let jar = CookieJar()
    var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
    configuration.timeout = 300
    let connection = ServerConnection(
      configuration: configuration, transport: CookieTransport(wrapping: try kind.make(), jar: jar),
      cache: HTTPCache())
    #expect(connection.cookieJar === jar)
    _ = try await cookies(connection, "/cookies/set", ["session": "abc"])
    try await connection.logout(clearingCookies: false)
    #expect(jar.cookies.count == 1)
    try await connection.logout(clearingCookies: true)
    #expect(jar.cookies.isEmpty)
    #expect(try await cookies(connection, "/cookies") == [:])
  }
}

private struct CookiesCall: RequestDescribing {
  typealias Response = DataResponse
  var path: String
  var queryItems: [URLQueryItem]
  var method: HTTPMethod { .get }
}

private func connection(_ kind: TransportUnderTest, jar: CookieJar) throws -> ServerConnection {
  var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
  configuration.timeout = 300
  return ServerConnection(
    configuration: configuration, transport: CookieTransport(wrapping: try kind.make(), jar: jar))
}

/// What httpbin echoed as the cookies it received, after following its redirect.
private func cookies(
  _ connection: ServerConnection, _ path: String, _ query: [String: String] = [:]
) async throws -> [String: String] {
  let items = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
  let response = try await connection.execute(CookiesCall(path: path, queryItems: items))
  let object = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
  return object?["cookies"] as? [String: String] ?? [:]
}
