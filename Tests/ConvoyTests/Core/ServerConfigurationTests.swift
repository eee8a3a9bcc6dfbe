import Convoy
import Foundation
import Testing

@Suite struct ServerConfigurationTests {
  private func configuration(_ base: String) -> ServerConfiguration {
    ServerConfiguration(environment: .staging, baseURL: URL(string: base)!)
  }

  @Test(arguments: [
    ("https://api.example.com", "v2/places", "https://api.example.com/v2/places"),
    ("https://api.example.com/", "/v2/places", "https://api.example.com/v2/places"),
    ("https://api.example.com/api", "v2/places", "https://api.example.com/api/v2/places"),
    ("https://api.example.com/api/", "/v2/places", "https://api.example.com/api/v2/places"),
    ("https://api.example.com/api/", "v2/places/", "https://api.example.com/api/v2/places/"),
    ("https://api.example.com/api", "", "https://api.example.com/api"),
  ])
  func joinsBaseAndPathWithExactlyOneSlash(base: String, path: String, expected: String) throws {
    #expect(try configuration(base).url(path: path).absoluteString == expected)
  }

  @Test func percentEncodesPathCharactersButKeepsExistingEscapes() throws {
    let url = try configuration("https://h.example").url(path: "places/São Paulo/a%2Fb")
    #expect(url.absoluteString == "https://h.example/places/S%C3%A3o%20Paulo/a%2Fb")
  }

  @Test func encodesQueryValuesStrictlySoPlusAndAmpersandSurvive() throws {
    let url = try configuration("https://h.example").url(
      path: "search",
      queryItems: [
        URLQueryItem(name: "q", value: "a+b & c"), URLQueryItem(name: "flag", value: nil),
        URLQueryItem(name: "city", value: "Zürich"),
      ])
    #expect(
      url.absoluteString == "https://h.example/search?q=a%2Bb%20%26%20c&flag&city=Z%C3%BCrich")
  }

  @Test func keepsQueryAlreadyInTheBaseURL() throws {
    let url = try configuration("https://h.example/api?version=2").url(
      path: "x", queryItems: [URLQueryItem(name: "a", value: "1")])
    #expect(url.absoluteString == "https://h.example/api/x?version=2&a=1")
  }

  @Test func usesAnAbsolutePathAsItIs() throws {
    let url = try configuration("https://h.example/api").url(
      path: "https://h.example/api/places?page=2")
    #expect(url.absoluteString == "https://h.example/api/places?page=2")
  }

  @Test(arguments: ["ftp://h.example", "file:///etc", "https://"])
  func refusesBaseURLsThatCannotCarryHTTP(base: String) {
    #expect(throws: ServerConnectionError.self) {
      try configuration(base).url(path: "x")
    }
  }

  @Test func localConfigurationPointsAtLoopback() throws {
    let local = ServerConfiguration.local(port: 8080, pathPrefix: "api")
    #expect(local.environment == .local)
    #expect(try local.url(path: "ping").absoluteString == "http://127.0.0.1:8080/api/ping")
  }

  @Test func environmentsHaveNamesAndCustomOnesCompareByName() {
    #expect(ServerEnvironment.staging.description == "staging")
    #expect(ServerEnvironment.custom("qa") == "qa")
    #expect(ServerEnvironment.production != .staging)
  }
}
