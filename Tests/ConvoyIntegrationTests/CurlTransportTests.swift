#if os(Linux)
  import Foundation
  import FoundationNetworking
  import Testing

  @testable import Convoy

  /// What only the curl transport promises, beyond the conformance suite.
  @Suite(.timeLimit(.minutes(1)), .needs(.httpbin))
  struct CurlTransportTests {
    @Test func keepsRepeatedHeaderFieldsApart() async throws {
      let url = HTTPBin.shared.url("/response-headers?X-Dup=first&X-Dup=second")
      let response = try await answer(to: TransportRequest(urlRequest: URLRequest(url: url)))
      #expect(response.headers.values(for: "x-dup") == ["first", "second"])
      #expect(response.httpURLResponse.value(forHTTPHeaderField: "X-Dup") == "first, second")
    }

    @Test func answersWithoutBuildingAnHTTPURLResponse() async throws {
      let url = HTTPBin.shared.url("/response-headers?X-One=1")
      let response = try await answer(to: TransportRequest(urlRequest: URLRequest(url: url)))
      #expect(response.statusCode == 200)
      #expect(response.headers["x-one"] == "1")
      #expect(!response.head.isHTTPURLResponseBuilt)
    }

    @Test func returnsARedirectInsteadOfFollowingIt() async throws {
      let url = HTTPBin.shared.url("/redirect-to?url=/get&status_code=307")
      let response = try await answer(to: TransportRequest(urlRequest: URLRequest(url: url)))
      #expect(response.statusCode == 307)
      #expect(response.headers["location"] == "/get")
    }

    @Test func neverSendsAFieldThatCarriesALineBreak() async throws {
      var request = URLRequest(url: HTTPBin.shared.url("/headers"))
      request.setValue("a\r\nX-Injected: b", forHTTPHeaderField: "X-Evil")
      request.setValue("fine", forHTTPHeaderField: "X-Good")
      let response = try await answer(to: TransportRequest(urlRequest: request))
      let echo = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
      let headers = try #require(echo?["headers"] as? [String: String])
      #expect(headers["X-Good"] == "fine")
      #expect(headers["X-Injected"] == nil)
      #expect(headers["X-Evil"] == nil)
    }

    @Test func cancellingTwiceCompletesOnce() async throws {
      let transport = try CurlTransport()
      let completions = Locked(0)
      let first = OneShot<Void>()
      let call = FaultServer.FaultCall(fault: .neverAnswers)
      let handle = transport.startTransfer(
        TransportRequest(urlRequest: URLRequest(url: FaultServer.shared.url(call.target)))
      ) { result in
        if case .failure(let failure) = result, failure.kind == .cancelled {
          completions.withLock { $0 += 1 }
          first.fulfil(())
        }
      }
      try await FaultServer.shared.waitForRequest(key: call.key)
      handle.cancel()
      handle.cancel()
      await first.value()
      // A second completion would come from the loop's handling of the second cancel, which it
      // takes before this later transfer: once that one has completed, none can follow.
      _ = await withCheckedContinuation { continuation in
        _ = transport.startTransfer(
          TransportRequest(urlRequest: URLRequest(url: FaultServer.shared.url("/ok")))
        ) { continuation.resume(returning: $0) }
      }
      #expect(completions.withLock { $0 } == 1)
    }

    @Test func droppingTheTransportCancelsWhatIsInFlight() async throws {
      var transport: CurlTransport? = try CurlTransport()
      let call = FaultServer.FaultCall(fault: .neverAnswers)
      let outcome = OneShot<Result<TransportResponse, TransportFailure>>()
      _ = transport!.startTransfer(
        TransportRequest(urlRequest: URLRequest(url: FaultServer.shared.url(call.target)))
      ) { outcome.fulfil($0) }
      // Dropped once the transfer is surely in flight: the server holds its request.
      try await FaultServer.shared.waitForRequest(key: call.key)
      transport = nil
      guard case .failure(let failure) = await outcome.value() else {
        Issue.record("expected a cancellation")
        return
      }
      #expect(failure.kind == .cancelled)
    }

    @Test func isThePlatformDefaultOnLinuxSharedByEveryConnection() throws {
      let transport = try #require(PlatformTransport.shared as? CurlTransport)
      #expect(PlatformTransport.shared as? CurlTransport === transport)
      let configuration = ServerConfiguration.local(port: 9)
      let first = ServerConnection(configuration: configuration)
      let second = ServerConnection(configuration: configuration)
      #expect(first.transport as? CurlTransport === transport)
      #expect(second.transport as? CurlTransport === transport)
      #expect(PlatformTransport.fallbackReason == nil)
      #expect(CurlTransport.unavailability == nil)
      #expect(CurlTransport.libcurlVersion != nil)
      let connection = ServerConnection(configuration: .local(port: HTTPBin.shared.port))
      #expect(connection.transport is CurlTransport)
    }

    @Test func aRecycledHandleCarriesNothingOfTheRequestBefore() async throws {
      // One transport, one call at a time: every call after the first runs on the handle the
      // previous one gave back to the pool.
      let transport = try CurlTransport()
      var post = URLRequest(url: HTTPBin.shared.url("/anything"))
      post.httpMethod = "PUT"
      post.httpBody = Data("first body".utf8)
      post.setValue("only-on-the-first", forHTTPHeaderField: "X-First")
      post.setValue("Bearer first-token", forHTTPHeaderField: "Authorization")
      let first = try json(try await answer(to: TransportRequest(urlRequest: post), on: transport))
      #expect(first["method"] as? String == "PUT")
      var head = URLRequest(url: HTTPBin.shared.url("/bytes/64"))
      head.httpMethod = "HEAD"
      let headAnswer = try await answer(to: TransportRequest(urlRequest: head), on: transport)
      #expect(headAnswer.data.isEmpty)
      let get = URLRequest(url: HTTPBin.shared.url("/anything"))
      let last = try json(try await answer(to: TransportRequest(urlRequest: get), on: transport))
      #expect(last["method"] as? String == "GET")
      #expect(last["data"] as? String == "")
      let headers = try #require(last["headers"] as? [String: String])
      #expect(headers["X-First"] == nil)
      #expect(headers["Authorization"] == nil)
      // A body comes back after a HEAD: the handle no longer skips it.
      let bytes = try await answer(
        to: TransportRequest(urlRequest: URLRequest(url: HTTPBin.shared.url("/bytes/64"))),
        on: transport)
      #expect(bytes.data.count == 64)
    }

    // An endless body must stop at the limit while it arrives: the fault server sends up to
    // 512 MiB for 10 s, and only a transfer stopped at 1 MiB fails with the limit's kind.
    @Test func stopsAnEndlessBodyAtTheBufferedBodyLimit() async throws {
      let request = TransportRequest(
        urlRequest: URLRequest(url: FaultServer.shared.url(FaultServer.Fault.endlessBody.rawValue)),
        responseLimits: ResponseLimits(maximumBodySize: 1 << 20))
      let result = await exchange(request, over: try CurlTransport())
      guard case .failure(let failure) = result else {
        Issue.record("expected the limit to stop the body, got an answer")
        return
      }
      #expect(failure.kind == .responseTooLarge, "\(failure)")
      #expect(failure.detail.contains("maximumBodySize"))
    }

    @Test func refusesAHeadWithMoreFieldsThanTheLimit() async throws {
      let url = FaultServer.shared.url(FaultServer.Fault.manyHeaders.rawValue)
      let result = await exchange(
        TransportRequest(urlRequest: URLRequest(url: url)), over: try CurlTransport())
      guard case .failure(let failure) = result else {
        Issue.record("expected the head to be refused, got an answer")
        return
      }
      #expect(failure.kind == .responseTooLarge, "\(failure)")
      #expect(failure.detail.contains("maximumHeaderFieldCount (1000)"))
    }

    private func json(_ response: TransportResponse) throws -> [String: Any] {
      try #require(JSONSerialization.jsonObject(with: response.data) as? [String: Any])
    }

    private func answer(
      to request: TransportRequest, on transport: CurlTransport? = nil
    ) async throws -> TransportResponse {
      let transport = try transport ?? CurlTransport()
      return try await withCheckedContinuation { continuation in
        _ = transport.startTransfer(request) { continuation.resume(returning: $0) }
      }.get()
    }
  }
#endif
