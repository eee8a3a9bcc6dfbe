import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a request's header fields become on the wire, the same on every transport.
@Suite("Request header conformance", .timeLimit(.minutes(2)), .needs(.httpbin))
struct RequestHeaderConformanceTests {
  @Test(arguments: TransportUnderTest.allCases)
  func aHeaderNameThatIsNotATokenIsRefusedBeforeAnythingIsSent(_ kind: TransportUnderTest)
    async throws
  {
    let sent = Locked(0)
    let connection = try makeConnection(kind, counting: sent)
    var call = EchoCall(path: "/headers")
    call.headers = HTTPHeaders([.init(name: "X-Bad Name:\r\nX-Injected", value: "1")])
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(call)
    }
    guard case .invalidHeader(let name, _) = error else {
      Issue.record("expected invalidHeader, got \(String(describing: error))")
      return
    }
    #expect(name == "X-Bad Name:\r\nX-Injected")
    #expect(ErrorMessageProvider.category(of: error!) == .invalidRequest)
    #expect(sent.withLock { $0 } == 0)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aValueWithALineBreakNeverPutsALineOfItsOwnOnTheWire(_ kind: TransportUnderTest)
    async throws
  {
    let sent = Locked(0)
    let connection = try makeConnection(kind, counting: sent)
    var call = EchoCall(path: "/headers")
    call.headers = ["X-Evil": "a\r\nX-Injected: b"]
    await #expect(throws: ServerConnectionError.self) { try await connection.execute(call) }
    #expect(sent.withLock { $0 } == 0)
    // The connection goes on; the next call carries no smuggled line.
    let headers = try echoedHeaders(try await connection.execute(EchoCall(path: "/headers")))
    #expect(headers["X-Injected"] == nil)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aPostWithoutABodyCarriesNoContentTypeTheAppDidNotSet(_ kind: TransportUnderTest)
    async throws
  {
    let connection = try makeConnection(kind, counting: Locked(0))
    let headers = try echoedHeaders(
      try await connection.execute(EchoCall(method: .post, path: "/anything")))
    #expect(headers["Content-Type"] == nil, "\(headers)")
    var typed = EchoCall(method: .post, path: "/anything")
    typed.headers = ["Content-Type": "application/x-custom"]
    let kept = try echoedHeaders(try await connection.execute(typed))
    #expect(kept["Content-Type"] == "application/x-custom")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aPostWithABodyKeepsItsBodysContentType(_ kind: TransportUnderTest) async throws {
    var call = EchoCall(method: .post, path: "/anything")
    call.body = .text("plain")
    let headers = try echoedHeaders(
      try await makeConnection(kind, counting: Locked(0)).execute(call))
    #expect(headers["Content-Type"]?.hasPrefix("text/plain") == true, "\(headers)")
  }
}

/// A call to httpbin whose answer is kept as raw bytes.
private struct EchoCall: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String
  var headers = HTTPHeaders()
  var body: RequestBody?
}

/// A connection to httpbin that counts the requests it hands to the transport.
private func makeConnection(_ kind: TransportUnderTest, counting sent: Locked<Int>) throws
  -> ServerConnection
{
  ServerConnection(
    configuration: .local(port: HTTPBin.shared.port), transport: try kind.make(),
    observers: [
      AnyEventObserver { event in
        if case .requestSent = event.kind { sent.withLock { $0 += 1 } }
      }
    ])
}

private func echoedHeaders(_ response: DataResponse) throws -> [String: String] {
  let echo = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
  return try #require(echo?["headers"] as? [String: String])
}
