import Foundation
import Testing

@testable import Convoy

@Suite struct ServerConfigurationFastURLTests {
  @Test(arguments: [
    "https://api.example.com", "https://api.example.com/", "https://api.example.com/api",
    "https://api.example.com/api/", "http://127.0.0.1:8080", "http://user:pw@h.example:81/a%20b/",
    "https://h.example/api?version=2", "https://h.example/api#top", "https://H.Example/API/",
    "https://h.example/api?version=2#top", "http://[::1]:8080/v1",
  ])
  func joiningAroundTheParsedBaseGivesTheURLComponentsResult(base: String) throws {
    let configuration = ServerConfiguration(environment: .staging, baseURL: URL(string: base)!)
    let paths = [
      "", "/", "v2/places", "/v2/places/", "places/São Paulo/a%2Fb", "a b/%zz/%41", "x?y=1",
      "x#frag", "./a/../b", "//double", "é/ü", "a:b@c", "%", "[x]",
    ]
    for path in paths {
      let fast = try? configuration.url(path: path)
      let general = try? configuration.urlFromComponents(path: path, queryItems: [])
      #expect(fast == general, "base \(base), path \(path)")
      #expect(fast?.absoluteString == general?.absoluteString, "base \(base), path \(path)")
    }
  }

  @Test func aPathAskedForAgainGivesTheSameURLAndACopyWithAnotherBaseItsOwn() throws {
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://one.example/api/")!)
    let first = try configuration.url(path: "places")
    #expect(try configuration.url(path: "places") == first)
    let copy = configuration
    configuration.baseURL = URL(string: "https://two.example/v2")!
    #expect(try configuration.url(path: "places").absoluteString == "https://two.example/v2/places")
    #expect(try copy.url(path: "places") == first)
    #expect(try configuration.url(path: "HTTPS://three.example/x").host == "three.example")
  }
}
