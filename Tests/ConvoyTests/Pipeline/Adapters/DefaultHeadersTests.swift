import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct DefaultHeadersTests {
  @Test func theUserAgentNamesTheProcessTheOSAndConvoy() {
    let agent = DefaultHeaders.userAgent()
    let os = ProcessInfo.processInfo.operatingSystemVersion
    #expect(agent.contains("\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"))
    #expect(agent.hasSuffix(") Convoy/\(ConvoyVersion.current)"))
    #if os(Linux)
      #expect(agent.contains("(Linux "))
    #endif
    #expect(agent.allSatisfy { $0.isASCII })
  }

  @Test func acceptLanguageGivesFallingQValues() {
    #expect(
      DefaultHeaders.acceptLanguage(preferredLanguages: ["de-CH", "en", "fr"])
        == "de-CH, en;q=0.9, fr;q=0.8")
    #expect(DefaultHeaders.acceptLanguage(preferredLanguages: []) == nil)
    let many = (1...9).map { "l\($0)" }
    #expect(DefaultHeaders.acceptLanguage(preferredLanguages: many)?.hasSuffix("l6;q=0.5") == true)
  }

  @Test func onlyMissingHeadersAreFilledIn() async throws {
    let adapter = DefaultHeaders(
      userAgent: "App/1", accept: "application/json", acceptLanguage: "en",
      acceptEncoding: nil)
    var request = URLRequest(url: URL(string: "https://api.example.com/")!)
    request.setValue("text/html", forHTTPHeaderField: "accept")
    let adapted = try await adapter.adapt(request, context: .probe())
    #expect(adapted.value(forHTTPHeaderField: "Accept") == "text/html")
    #expect(adapted.value(forHTTPHeaderField: "User-Agent") == "App/1")
    #expect(adapted.value(forHTTPHeaderField: "Accept-Language") == "en")
    #expect(adapted.value(forHTTPHeaderField: "Accept-Encoding") == nil)
  }

  @Test func aConnectionSendsThemUnlessTheConfigurationOrRequestSetsThem() async throws {
    let transport = StubTransport { _ in .json([:]) }
    var configuration = probeConfiguration
    configuration.defaultHeaders = ["Accept": "application/vnd.api+json"]
    let request = ProbeRequest(headers: ["User-Agent": "Mine/2"])
    _ = try await probeConnection(transport, configuration: configuration).execute(request)
    let sent = try #require(transport.requests.first?.urlRequest)
    #expect(sent.value(forHTTPHeaderField: "User-Agent") == "Mine/2")
    #expect(sent.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json")
    #expect(sent.value(forHTTPHeaderField: "Accept-Encoding") == "gzip, deflate")
  }
}
