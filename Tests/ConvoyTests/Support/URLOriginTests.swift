import Convoy
import Foundation
import Testing

@Suite struct URLOriginTests {
  @Test func anOriginIsSchemeHostAndEffectivePort() throws {
    let origin = try #require(URLOrigin(URL(string: "HTTPS://API.Example.com/v1?x=1")!))
    #expect(origin.scheme == "https")
    #expect(origin.host == "api.example.com")
    #expect(origin.port == 443)
    #expect(URLOrigin(URL(string: "http://[::1]:8080/")!)?.description == "http://[::1]:8080")
    #expect(URLOrigin(URL(string: "file:///etc/passwd")!) == nil)
  }

  @Test(arguments: [
    ("https://a.example/x", "https://a.example:443/y", true),
    ("http://a.example/x", "https://a.example/y", true),
    ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/me", true),
    ("http://127.0.0.1:8080/", "http://127.0.0.1:9090/me", false),
    ("http://127.0.0.1:8080/", "https://127.0.0.1:8443/me", false),
    ("https://a.example/x", "http://a.example/y", false),
    ("https://a.example/x", "https://b.example/y", false),
    ("https://a.example/x", "ftp://a.example/y", false),
  ])
  func credentialsTravelOnlyWithinTheirOrigin(source: String, target: String, allowed: Bool) {
    #expect(
      URLOrigin.mayCarryCredentials(from: URL(string: source)!, to: URL(string: target)!)
        == allowed)
  }
}
