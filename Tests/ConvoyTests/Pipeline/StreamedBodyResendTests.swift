import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a streamed body's replay kind allows: a restartable body is produced afresh for every
/// send; a one-shot body is sent once, and a call that needs it again fails saying why.
@Suite(.timeLimit(.minutes(2))) struct StreamedBodyResendTests {
  static func parts(_ texts: [String]) -> AsyncStream<Data> {
    AsyncStream { continuation in
      for text in texts { continuation.yield(Data(text.utf8)) }
      continuation.finish()
    }
  }

  @Test func aRestartableBodyIsProducedAfreshForEveryRetry() async throws {
    let calls = Locked(0)
    let transport = StubTransport { _ in calls.next() == 0 ? .status(503) : .json([:]) }
    let made = Locked(0)
    var request = ProbeRequest(
      method: .put,
      body: .stream(
        .restartable {
          made.withLock { $0 += 1 }
          return Self.parts(["a", "b", "c"])
        }))
    request.allowsRetry = true
    _ = try await probeConnection(transport).execute(request)
    #expect(
      transport.requests.map { String(decoding: $0.urlRequest.httpBody ?? Data(), as: UTF8.self) }
        == ["abc", "abc"])
    #expect(made.current == 2)
  }

  @Test func aWriterRunsOncePerSend() async throws {
    let calls = Locked(0)
    let transport = StubTransport { _ in calls.next() == 0 ? .status(503) : .json([:]) }
    let runs = Locked(0)
    var request = ProbeRequest(
      method: .post,
      body: .writer { writer in
        runs.withLock { $0 += 1 }
        try await writer.write(Data("row\n".utf8))
      })
    request.allowsRetry = true
    _ = try await probeConnection(transport).execute(request)
    #expect(transport.requests.count == 2)
    #expect(transport.requests.allSatisfy { $0.urlRequest.httpBody == Data("row\n".utf8) })
    #expect(runs.current == 2)
  }

  @Test func aOneShotBodyIsNeverRetried() async throws {
    let transport = StubTransport { _ in .status(503) }
    var request = ProbeRequest(method: .put, body: .stream(Self.parts(["once"])))
    request.allowsRetry = true
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(request)
    }
    #expect(error?.statusCode == 503)
    #expect(transport.requests.count == 1)
  }

  @Test func aOneShotBodyRedirectedWith307FailsSayingSo() async throws {
    let transport = StubTransport { request in
      request.urlRequest.url?.path == "/probe"
        ? .status(307, headers: ["Location": "/moved"]) : .json([:])
    }
    let error = await #expect(throws: ServerConnectionError.self) {
      try await probeConnection(transport).execute(
        ProbeRequest(method: .post, body: .stream(Self.parts(["once"]))))
    }
    guard case .bodyNotResendable(let reason, let context) = error else {
      Issue.record("expected bodyNotResendable, got \(String(describing: error))")
      return
    }
    #expect(reason == "the server redirected it with 307")
    #expect(context.statusCode == 307)
    #expect(ErrorMessageProvider.category(of: error!) == .uploadNotResendable)
    #expect(transport.requests.count == 1)
  }

  @Test func aOneShotBodyThatATokenRenewalWouldResendFailsSayingSo() async throws {
    let server = TokenServer()
    let connection = try server.connection(token: "token-0")
    struct Post: RequestDescribing {
      typealias Response = JSONResponse<[String: String]>
      var body: RequestBody?
      var method: HTTPMethod { .post }
      var path: String { "me" }
      var authenticationRequirement: AuthenticationRequirement { .accessToken }
    }
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(Post(body: .stream(Self.parts(["once"]))))
    }
    guard case .bodyNotResendable(let reason, let context) = error else {
      Issue.record("expected bodyNotResendable, got \(String(describing: error))")
      return
    }
    #expect(reason.hasSuffix("asked for it after status 401"))
    #expect(context.statusCode == 401)
    // The token was renewed all the same: the next call uses it.
    #expect(server.refreshCalls == 1)
  }

  @Test func aOneShotBodyOpenedTwiceFailsTheSecondTime() throws {
    let body = StreamedBody.oneShot(Self.parts(["once"]))
    _ = try body.open()
    #expect(throws: TransportFailure.self) { try body.open() }
    #expect(!body.isReplayable)
    #expect(!RequestBody.stream(body).isReplayable)
  }

  @Test func onlyASeekableBodyOpensAtAnOffset() async throws {
    let seekable = StreamedBody.seekable(length: 10) { offset in
      Self.parts([String(repeating: "x", count: Int(10 - offset))])
    }
    let stream = try seekable.open(at: 4)
    #expect(stream.length == 6)
    #expect(try await stream.next() == Data("xxxxxx".utf8))
    #expect(try await stream.next() == nil)
    let restartable = StreamedBody.restartable { Self.parts(["a"]) }
    #expect(throws: TransportFailure.self) { try restartable.open(at: 1) }
  }
}
