import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Header fields no transport can send as they are are refused by the pipeline, once for every
/// transport, before anything is sent.
@Suite struct HeaderRefusalTests {
  @Test(arguments: ["X-Bad Name:\r\nX-Injected", "X Bad", "X:Bad", "X-Ü", "X-\"q\"", "X-(a)"])
  func aHeaderNameThatIsNotATokenIsRefusedBeforeAnythingIsSent(name: String) async {
    let transport = StubTransport { _ in .json([:]) }
    let request = ProbeRequest(headers: HTTPHeaders([.init(name: name, value: "v")]))
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(request)
    }
    guard case .invalidHeader(let named, let context) = error else {
      Issue.record("expected invalidHeader, got \(String(describing: error))")
      return
    }
    #expect(named == name)
    #expect(context.url == "https://api.example.com/probe")
    #expect(ErrorMessageProvider.category(of: error!) == .invalidRequest)
    #expect(transport.requests.isEmpty)
  }

  @Test(arguments: ["a\r\nX-Injected: b", "a\nX-Injected: b", "a\rb", "a\u{0}b"])
  func aValueWithALineBreakIsRefusedRatherThanSmuggledOntoALineOfItsOwn(value: String) async {
    let transport = StubTransport { _ in .json([:]) }
    let request = ProbeRequest(headers: ["X-Evil": value])
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(request)
    }
    #expect(error == .invalidHeader("X-Evil", ErrorContext(method: .get, url: probeURL)))
    #expect(transport.requests.isEmpty)
  }

  @Test func aFieldAnAdapterAddsIsCheckedToo() async {
    let transport = StubTransport { _ in .json([:]) }
    let adapter = AnyRequestAdapter { request, _ in
      var request = request
      request.setValue("1", forHTTPHeaderField: "X-From Adapter")
      return request
    }
    let request = ProbeRequest(adapters: [adapter])
    await #expect(throws: ServerConnectionError.invalidHeader("X-From Adapter", probeContext)) {
      try await probeConnection(transport).execute(request)
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func theDeveloperDescriptionShowsTheNameWithItsLineBreaksEscaped() {
    let error = ServerConnectionError.invalidHeader("X-Bad Name:\r\nX-Injected", probeContext)
    #expect(
      error.description
        == #"header "X-Bad Name:\r\nX-Injected" cannot be sent: GET https://api.example.com/probe"#
    )
  }

  @Test func everyTokenCharacterAndAnOrdinaryValueGoThroughUnchanged() async throws {
    let transport = StubTransport { _ in .json([:]) }
    let name = "X-!#$%&'*+-.^_`|~09azAZ"
    let value = "a value\twith tabs, spaces and ünïcode"
    let request = ProbeRequest(headers: [name: value])
    _ = try await probeConnection(transport).execute(request)
    let sent = try #require(transport.requests.first?.urlRequest)
    #expect(sent.value(forHTTPHeaderField: name) == value)
  }

  @Test(arguments: [
    ("Content-Type", true), ("x", true), ("", false), (" X", false), ("X\t", false),
    ("X/Y", false), ("X;Y", false), ("X=Y", false), ("X,Y", false), ("X@Y", false),
    ("X[Y]", false), ("X{Y}", false), ("X?Y", false), ("X\\Y", false), ("é", false),
  ])
  func namesAreTokens(name: String, isValid: Bool) {
    #expect(HTTPFieldSyntax.isValidName(name) == isValid)
  }

  private var probeURL: URL { URL(string: "https://api.example.com/probe")! }
  private var probeContext: ErrorContext { ErrorContext(method: .get, url: probeURL) }
}
