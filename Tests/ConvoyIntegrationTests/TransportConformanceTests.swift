import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Every transport must give the same answers through a ``ServerConnection``: the redirect and
/// deadline rules live above the transport, and the transport maps its failures to the same kinds.
@Suite("Transport conformance", .timeLimit(.minutes(2)), .needs(.httpbin))
struct TransportConformanceTests {
  // MARK: Answers and echoes

  @Test(arguments: TransportUnderTest.allCases)
  func answersWithTheServersStatus(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind)
    for status in [200, 201, 204, 404, 418, 500, 503] {
      var call = ConformanceCall(path: "/status/\(status)")
      call.acceptableStatusCodes = 100..<600
      let response = try await connection.execute(call)
      #expect(response.response.statusCode == status)
    }
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(ConformanceCall(path: "/status/404"))
    }
    #expect(error?.statusCode == 404)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func echoesTheQuery(_ kind: TransportUnderTest) async throws {
    var call = ConformanceCall(path: "/get")
    call.queryItems = [
      URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "b", value: "x y&z+"),
    ]
    let echo = try await json(try makeConnection(kind).execute(call))
    #expect(echo["args"] as? [String: String] == ["a": "1", "b": "x y&z+"])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func sendsTheBodyAndEveryHeader(_ kind: TransportUnderTest) async throws {
    var call = ConformanceCall(method: .post, path: "/post")
    call.body = .json(["name": "Harbour"])
    call.headers = ["X-Convoy-Test": "yes", "x-lower": "kept"]
    let echo = try await json(try makeConnection(kind).execute(call))
    #expect(echo["json"] as? [String: String] == ["name": "Harbour"])
    let headers = try #require(echo["headers"] as? [String: String])
    #expect(headers["X-Convoy-Test"] == "yes")
    #expect(headers["X-Lower"] == "kept")
    #expect(headers["Content-Type"] == "application/json")
    #expect(headers["Expect"] == nil)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func sendsEveryMethod(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind)
    for method in [HTTPMethod.get, .post, .put, .patch, .delete] {
      var call = ConformanceCall(method: method, path: "/anything")
      if method != .get { call.body = .text("body of \(method.rawValue)") }
      let echo = try json(try await connection.execute(call))
      #expect(echo["method"] as? String == method.rawValue)
      if method != .get { #expect(echo["data"] as? String == "body of \(method.rawValue)") }
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aFieldWithAnEmptyValueAndALongOneArriveAsTheyWere(_ kind: TransportUnderTest) async throws {
    var call = ConformanceCall(path: "/anything")
    let long = String(repeating: "0123456789", count: 400)
    call.headers = ["X-Empty": "", "X-Long": long]
    let echo = try json(try await makeConnection(kind).execute(call))
    let headers = try #require(echo["headers"] as? [String: String])
    #expect(headers["X-Empty"] == "")
    #expect(headers["X-Long"] == long)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aCallWithoutABodySendsNoContentTypeNorExpect(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind)
    for method in [HTTPMethod.get, .delete, .post] {
      let echo = try json(
        try await connection.execute(ConformanceCall(method: method, path: "/anything")))
      let headers = try #require(echo["headers"] as? [String: String])
      #expect(headers["Content-Type"] == nil, "\(method.rawValue)")
      #expect(headers["Expect"] == nil, "\(method.rawValue)")
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func headIsARealHead(_ kind: TransportUnderTest) async throws {
    let response = try await makeConnection(kind).execute(
      ConformanceCall(method: .head, path: "/bytes/2048"))
    #expect(response.response.statusCode == 200)
    #expect(response.data.isEmpty)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func streamsABodyFromAFile(_ kind: TransportUnderTest) async throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-conformance-\(UUID().uuidString).txt")
    let text = String(repeating: "line of the file\n", count: 20_000)
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    var call = ConformanceCall(method: .put, path: "/anything")
    call.body = .file(file, contentType: "text/plain")
    let echo = try await json(try makeConnection(kind).execute(call))
    #expect(echo["method"] as? String == "PUT")
    #expect((echo["data"] as? String) == text)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func reportsAnUnreadableBodyFile(_ kind: TransportUnderTest) async throws {
    let missing = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-missing-\(UUID().uuidString)")
    var call = ConformanceCall(method: .post, path: "/post")
    call.body = .file(missing)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await makeConnection(kind).execute(call)
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .fileUnreadable, "\(failure)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func decodesGzip(_ kind: TransportUnderTest) async throws {
    let echo = try await json(try makeConnection(kind).execute(ConformanceCall(path: "/gzip")))
    #expect(echo["gzipped"] as? Bool == true)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func movesLargeBodies(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind)
    let downloaded = try await connection.execute(ConformanceCall(path: "/bytes/102400"))
    #expect(downloaded.data.count == 102_400)
    var stream = ConformanceCall(path: "/stream-bytes/102400")
    stream.queryItems = [URLQueryItem(name: "chunk_size", value: "1000")]
    let streamed = try await connection.execute(stream)
    #expect(streamed.data.count == 102_400)
    let large = String(repeating: "0123456789abcdef", count: 64 * 1024)
    var upload = ConformanceCall(method: .post, path: "/anything")
    upload.body = .text(large)
    let echoed = try await connection.execute(upload)
    #expect(echoed.data.count > large.utf8.count)
    #expect((try json(echoed)["data"] as? String) == large)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func answers401WithABasicChallengeInsteadOfHanging(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind, timeout: 20)
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(ConformanceCall(path: "/basic-auth/user/secret"))
    }
    #expect(error?.statusCode == 401)
    var call = ConformanceCall(path: "/basic-auth/user/secret")
    call.headers = ["Authorization": "Basic " + Data("user:secret".utf8).base64EncodedString()]
    let echo = try json(try await connection.execute(call))
    #expect(echo["authenticated"] as? Bool == true)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func runsConcurrentTransfers(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<24 {
        group.addTask {
          var call = ConformanceCall(path: "/get")
          call.queryItems = [URLQueryItem(name: "index", value: String(index))]
          let echo = try json(try await connection.execute(call))
          #expect(echo["args"] as? [String: String] == ["index": String(index)])
        }
      }
      try await group.waitForAll()
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func callsStartedTogetherOnAFreshTransportRunSideBySide(_ kind: TransportUnderTest)
    async throws
  {
    // The fault server holds each request until all four are held at once (or answers 504 after
    // 10 s): every call succeeds only if the transport sent them side by side. A clock would say
    // the same only on an idle machine.
    let connection = ServerConnection(
      configuration: .local(port: FaultServer.shared.port), transport: try kind.make())
    let key = UUID().uuidString
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          try await connection.execute(FaultServer.TogetherCall(key: key, count: 4))
            .response.statusCode
        }
      }
      for try await status in group {
        #expect(status == 200, "a call was answered alone: the transport held the others back")
      }
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func readsRepeatedHeadersCaseInsensitively(_ kind: TransportUnderTest) async throws {
    let response = try await send(
      URLRequest(url: HTTPBin.shared.url("/response-headers?X-Dup=first&X-Dup=second&X-One=1")),
      over: try kind.make())
    let joined = try #require(response.headers["x-dup"])
    #expect(joined.contains("first") && joined.contains("second"))
    #expect(response.headers["X-ONE"] == "1")
    #expect(response.httpURLResponse.value(forHTTPHeaderField: "x-one") == "1")
  }

  // MARK: Redirects, under Convoy's rules for every transport

  @Test(arguments: TransportUnderTest.allCases)
  func followsAFoundRedirectAsAGet(_ kind: TransportUnderTest) async throws {
    var call = ConformanceCall(method: .post, path: "/redirect-to")
    call.queryItems = [
      URLQueryItem(name: "url", value: "/anything"), .init(name: "status_code", value: "302"),
    ]
    call.body = .text("dropped")
    let response = try await makeConnection(kind).execute(call)
    let echo = try json(response)
    #expect(echo["method"] as? String == "GET")
    #expect(echo["data"] as? String == "")
    #expect(response.response.url?.path == "/anything")
  }

  @Test(arguments: TransportUnderTest.allCases.flatMap { kind in [307, 308].map { (kind, $0) } })
  func keepsTheMethodAndBodyOnATemporaryOrPermanentRedirect(
    _ kind: TransportUnderTest, status: Int
  ) async throws {
    var call = ConformanceCall(method: .post, path: "/redirect-to")
    call.queryItems = [
      URLQueryItem(name: "url", value: "/anything"), .init(name: "status_code", value: "\(status)"),
    ]
    call.body = .json(["kept": true])
    let echo = try await json(try makeConnection(kind).execute(call))
    #expect(echo["method"] as? String == "POST")
    #expect(echo["json"] as? [String: Bool] == ["kept": true])
  }

  @Test(arguments: TransportUnderTest.allCases)
  func dropsAuthorizationOnlyOnACrossHostHop(_ kind: TransportUnderTest) async throws {
    let connection = try makeConnection(kind)
    let authorization = ["Authorization": "Bearer conformance-token"] as HTTPHeaders
    for (target, keeps) in [
      (HTTPBin.shared.url("/headers"), true), (HTTPBin.other.url("/headers"), false),
    ] {
      var call = ConformanceCall(path: "/redirect-to")
      call.queryItems = [URLQueryItem(name: "url", value: target.absoluteString)]
      call.headers = authorization
      let headers = try json(try await connection.execute(call))["headers"] as? [String: String]
      #expect((headers?["Authorization"] != nil) == keeps, "redirect to \(target)")
    }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func failsPastTheHopLimit(_ kind: TransportUnderTest) async throws {
    var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
    configuration.redirectPolicy = RedirectPolicy(maximumHops: 2)
    let connection = ServerConnection(configuration: configuration, transport: try kind.make())
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(ConformanceCall(path: "/redirect/4"))
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .tooManyRedirects)
  }

  // MARK: Time and cancellation

  @Test(arguments: TransportUnderTest.allCases)
  func cancelsOneTransferMidFlightAndLetsTheOthersFinish(_ kind: TransportUnderTest) async throws {
    // Both calls share one transport; the slow one goes to a server that never answers, so only
    // the cancellation ends it, and it is cancelled once the server holds its request.
    let transport = try kind.make()
    let silent = ServerConnection(
      configuration: .local(port: FaultServer.shared.port), transport: transport)
    let connection = ServerConnection(
      configuration: ServerConfiguration(environment: .local, baseURL: HTTPBin.shared.baseURL),
      transport: transport)
    let call = FaultServer.FaultCall(fault: .neverAnswers)
    let slow = Task { try await silent.execute(call) }
    let other = Task { try await connection.execute(ConformanceCall(path: "/delay/1")) }
    try await FaultServer.shared.waitForRequest(key: call.key)
    slow.cancel()
    let result = await slow.result
    #expect(throws: ServerConnectionError.cancelled) { try result.get() }
    #expect(try await other.value.response.statusCode == 200)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func failsAtTheWholeCallDeadline(_ kind: TransportUnderTest) async throws {
    // The server never answers: only the 1 s deadline can end the call.
    var configuration = ServerConfiguration.local(port: FaultServer.shared.port)
    configuration.timeout = 1
    let silent = ServerConnection(configuration: configuration, transport: try kind.make())
    let error = await #expect(throws: ServerConnectionError.self) {
      try await silent.execute(FaultServer.FaultCall(fault: .neverAnswers))
    }
    // The pipeline gives the transport the same idle timeout as the whole call, so either clock
    // may ring first; both are a timeout, and read as one.
    switch error {
    case .timedOut: break
    case .transportFailed(let failure, _) where failure.kind == .timedOut: break
    default: Issue.record("expected a timeout, got \(String(describing: error))")
    }
    #expect(error.flatMap(ErrorMessageProvider.standard.message(for:)) == wording(.timedOut))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func failsWhenTheServerFallsSilentForTheIdleTimeout(_ kind: TransportUnderTest) async throws {
    // The server never answers: only the 1 s idle timeout can end the transfer.
    let result = await exchange(
      TransportRequest(
        urlRequest: URLRequest(
          url: FaultServer.shared.url(FaultServer.Fault.neverAnswers.rawValue)),
        idleTimeout: 1),
      over: try kind.make())
    guard case .failure(let failure) = result else {
      Issue.record("expected an idle timeout, got an answer")
      return
    }
    #expect(failure.kind == .timedOut, "\(failure)")
  }

  // MARK: Failures map to the same kinds and sentences

  @Test(arguments: TransportUnderTest.allCases)
  func reportsARefusedConnection(_ kind: TransportUnderTest) async throws {
    let port = try closedLoopbackPort()
    let connection = ServerConnection(
      configuration: .local(port: port), transport: try kind.make())
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(ConformanceCall(path: "/get"))
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .cannotConnectToHost, "\(failure)")
    #expect(ErrorMessageProvider.standard.message(for: error!) == wording(.serverUnreachable))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func reportsAFailedTLSHandshake(_ kind: TransportUnderTest) async throws {
    // httpbin speaks plain HTTP, so a TLS ClientHello to it can only fail.
    var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
    configuration.baseURL = URL(string: "https://127.0.0.1:\(HTTPBin.shared.port)")!
    configuration.timeout = 300
    let connection = ServerConnection(configuration: configuration, transport: try kind.make())
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(ConformanceCall(path: "/get"))
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .secureConnectionFailed, "\(failure)")
    #expect(ErrorMessageProvider.standard.message(for: error!) == wording(.insecureConnection))
  }
}

// MARK: - Helpers

/// A call whose every part a test may set; the answer is kept as raw bytes.
private struct ConformanceCall: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String
  var queryItems: [URLQueryItem] = []
  var headers = HTTPHeaders()
  var body: RequestBody?
  var acceptableStatusCodes: Range<Int> = 200..<300
}

private func makeConnection(_ kind: TransportUnderTest, timeout: TimeInterval = 30) throws
  -> ServerConnection
{
  var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
  configuration.timeout = timeout
  return ServerConnection(configuration: configuration, transport: try kind.make())
}

private func json(_ response: DataResponse) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
}

private func wording(_ category: ErrorCategory) -> ErrorMessage? {
  ErrorMessageProvider.standardWording[category]
}

private func send(_ request: URLRequest, over transport: any HTTPTransport) async throws
  -> TransportResponse
{
  try await exchange(TransportRequest(urlRequest: request, idleTimeout: 30), over: transport).get()
}
