import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Appends its name to a header, so the order adapters ran in shows on the wire.
private struct Mark: RequestAdapter {
  let name: String

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    var request = request
    let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," } ?? ""
    request.setValue(trail + name, forHTTPHeaderField: "X-Trail")
    return request
  }
}

@Suite struct BuiltInAdapterTests {
  @Test func queryItemsAreAppendedStrictlyEncodedAfterExistingOnes() async throws {
    let request = URLRequest(url: URL(string: "https://api.example.com/p?page=2")!)
    let adapter = QueryItemsAdapter([
      URLQueryItem(name: "q", value: "a+b&c"), URLQueryItem(name: "flag", value: nil),
    ])
    let adapted = try await adapter.adapt(request, context: .probe())
    #expect(adapted.url?.absoluteString == "https://api.example.com/p?page=2&q=a%2Bb%26c&flag")
  }

  @Test func connectionAdaptersRunBeforeTheRequestsOwnOnTopOfTheDescription() async throws {
    let transport = StubTransport { _ in .json([:]) }
    let connection = ServerConnection(
      configuration: probeConfiguration, transport: transport,
      adapters: [
        Mark(name: "connection"), QueryItemsAdapter([URLQueryItem(name: "key", value: "k")]),
      ])
    let request = ProbeRequest(
      method: .delete, queryItems: [URLQueryItem(name: "id", value: "7")],
      adapters: [Mark(name: "request")])
    _ = try await connection.execute(request)
    let sent = try #require(transport.requests.first?.urlRequest)
    #expect(sent.httpMethod == "DELETE")
    #expect(sent.url?.absoluteString == "https://api.example.com/probe?id=7&key=k")
    #expect(sent.value(forHTTPHeaderField: "X-Trail") == "connection,request")
  }

  @Test func aThrowingAdapterStopsTheCallBeforeAnythingIsSent() async {
    struct Refuse: Error {}
    let transport = StubTransport { _ in .json([:]) }
    let refuse = AnyRequestAdapter { _, _ in throw Refuse() }
    await #expect(throws: Refuse.self) {
      try await probeConnection(transport).execute(ProbeRequest(adapters: [refuse]))
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func aLargeMultipartBodyIsStreamedFromOneTemporaryFileRemovedAfterTheCall() async throws {
    var form = MultipartFormData(boundary: "b")
    form.append("value", name: "field")
    let expected = try form.encoded()
    let seen = Locked<[(URL?, Data?)]>([])
    let calls = Locked(0)
    let transport = StubTransport { request in
      let file = request.bodyFileURL
      seen.withLock { $0.append((file, file.flatMap { try? Data(contentsOf: $0) })) }
      return calls.next() == 0 ? .status(503) : .json([:])
    }
    let request = ProbeRequest(method: .put, body: .multipart(form, memoryThreshold: 0))
    _ = try await probeConnection(transport).execute(request)
    let attempts = seen.current
    #expect(attempts.count == 2)
    #expect(attempts.allSatisfy { $0.1 == expected })
    #expect(attempts[0].0 != nil && attempts[0].0 == attempts[1].0)
    let file = try #require(attempts[0].0)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let sent = try #require(transport.requests.first?.urlRequest)
    #expect(sent.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=b")
    #expect(sent.httpBody == nil)
  }

  @Test func aBodyThatFailsToEncodeIsAnEncodingFailure() async {
    var form = MultipartFormData()
    form.append(fileAt: URL(fileURLWithPath: "/nonexistent/convoy.bin"), name: "f")
    let transport = StubTransport { _ in .json([:]) }
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(
        ProbeRequest(method: .post, body: .multipart(form)))
    }
    guard case .encodingFailed = error else {
      Issue.record("expected encodingFailed, got \(String(describing: error))")
      return
    }
    #expect(transport.requests.isEmpty)
  }
}
