import Convoy
import ConvoyTestSupport
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if os(Linux)
  /// WebSockets against the `websockets` package (scripts/websocket_server.py), over libcurl in
  /// connect-only mode: plain and over TLS, with permessage-deflate as the server agrees to it.
  @Suite(.needs(.websockets), .timeLimit(.minutes(2)))
  struct WebSocketIntegrationTests {
    private func connection(
      secure: Bool = false, transport: (any HTTPTransport)? = nil
    ) throws -> ServerConnection {
      try WebSocketServer.shared.connection(secure: secure, transport: transport)
    }

    @Test(arguments: [false, true])
    func textAndBinaryMessagesComeBackAsTheyWent(secure: Bool) async throws {
      let socket = try await connection(secure: secure).webSocket(
        WebSocketEndpoint(path: "echo"))
      #expect(socket.isCompressed)
      let large = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
      let sent: [WebSocketMessage] = [
        .text("hello"), .binary(Data([0, 1, 2, 255])), .text("ünïcødé ✓"), .binary(large),
      ]
      for message in sent { try await socket.send(message) }
      var received: [WebSocketMessage] = []
      for try await message in socket.messages {
        received.append(message)
        if received.count == sent.count { break }
      }
      #expect(received == sent)
      await socket.close()
    }

    @Test func typedMessagesAreDecodedWithTheConnectionsDecoder() async throws {
      struct Place: Codable, Sendable, Equatable {
        var id: Int
        var name: String
      }
      let socket = try await connection().webSocket(WebSocketEndpoint(path: "echo"))
      try await socket.send(json: Place(id: 7, name: "Alster"))
      var places = socket.messages(as: Place.self).makeAsyncIterator()
      #expect(try await places.next() == Place(id: 7, name: "Alster"))
      try await socket.send(.text("not a place"))
      await #expect(throws: DecodingError.self) { _ = try await places.next() }
      await socket.close()
    }

    @Test func withoutCompressionMessagesTravelAsTheyAre() async throws {
      let socket = try await connection().webSocket(
        WebSocketEndpoint(path: "echo", options: WebSocketOptions(compression: false)))
      #expect(!socket.isCompressed)
      try await socket.send(.text(String(repeating: "a", count: 10_000)))
      var iterator = socket.messages.makeAsyncIterator()
      #expect(try await iterator.next() == .text(String(repeating: "a", count: 10_000)))
      await socket.close()
    }

    @Test func theServersCloseCodeAndReasonEndTheMessages() async throws {
      let socket = try await connection().webSocket(
        WebSocketEndpoint(
          path: "close",
          queryItems: [
            URLQueryItem(name: "code", value: "4000"), .init(name: "reason", value: "bye"),
          ]))
      var count = 0
      for try await _ in socket.messages { count += 1 }
      #expect(count == 0)
      #expect(socket.closeCode == WebSocketCloseCode(rawValue: 4000))
      #expect(socket.closeReason == "bye")
      await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
    }

    @Test func messagesSentBeforeTheServersCloseAllArrive() async throws {
      let socket = try await connection().webSocket(
        WebSocketEndpoint(path: "speak", queryItems: [URLQueryItem(name: "count", value: "50")]))
      var texts: [String] = []
      for try await message in socket.messages {
        if case .text(let text) = message { texts.append(text) }
      }
      #expect(texts == (1...50).map(String.init))
      #expect(socket.closeCode == .normalClosure)
    }

    @Test func theServerPicksAnOfferedSubprotocolAndSeesTheHandshakesFields() async throws {
      let jar = CookieJar()
      let server = WebSocketServer.shared
      jar.store(
        setCookieFields: ["flavour=oat; Path=/"],
        from: URL(string: "http://127.0.0.1:\(server.port)/")!)
      let socket = try await connection(
        transport: CookieTransport(wrapping: try CurlTransport(), jar: jar)
      ).webSocket(WebSocketEndpoint(path: "headers", subprotocols: ["chat.v2", "chat.v1"]))
      #expect(socket.subprotocol == "chat.v1")
      var iterator = socket.messages.makeAsyncIterator()
      let report = try #require(try await iterator.next())
      struct Report: Decodable {
        var authorization: Bool
        var cookie: String?
        var subprotocol: String?
        var extensions: String?
      }
      let seen = try report.decode(Report.self)
      #expect(seen.cookie == "flavour=oat")
      #expect(seen.subprotocol == "chat.v1")
      #expect(!seen.authorization)
      #expect(seen.extensions?.hasPrefix("permessage-deflate") == true)
      await socket.close()
    }

    @Test func aClientCloseEndsTheMessagesAndRefusesMoreSends() async throws {
      let socket = try await connection().webSocket(WebSocketEndpoint(path: "echo"))
      try await socket.send(.text("one"))
      var iterator = socket.messages.makeAsyncIterator()
      #expect(try await iterator.next() == .text("one"))
      await socket.close(code: .normalClosure, reason: "done")
      #expect(try await iterator.next() == nil)
      #expect(socket.closeCode == .normalClosure)
      await #expect(throws: WebSocketError.self) { try await socket.send(.text("two")) }
    }

    @Test func aRefusedUpgradeIsTheStatusItCameWith() async throws {
      let error = await #expect(throws: ServerConnectionError.self) {
        _ = try await connection().webSocket(WebSocketEndpoint(path: "private"))
      }
      #expect(error?.statusCode == 401)
    }

    @Test func anEndpointThatNeedsTheSessionFailsWithoutOneBeforeConnecting() async throws {
      await #expect(throws: ServerConnectionError.self) {
        _ = try await connection().webSocket(
          WebSocketEndpoint(path: "private", requiresAuthentication: true))
      }
    }

    @Test func urlSessionRefusesByName() async throws {
      let error = await #expect(throws: ServerConnectionError.self) {
        _ = try await connection(transport: URLSessionTransport()).webSocket(
          WebSocketEndpoint(path: "echo"))
      }
      guard case .transportFailed(let failure, _)? = error else {
        Issue.record("expected a transport failure, got \(String(describing: error))")
        return
      }
      #expect(failure.kind == .notSupportedByTransport)
    }
  }
#endif

#if os(Linux)
  /// What the server saw when a WebSocket was left: the close code it received.
  @Suite(.needs(.websockets), .timeLimit(.minutes(2)))
  struct WebSocketLeavingTests {
    private func connection() throws -> ServerConnection {
      try WebSocketServer.shared.connection()
    }

    /// The close code the server remembered under `key`.
    private func closeCode(for key: String) async throws -> String? {
      let report = try await connection().webSocket(
        WebSocketEndpoint(path: "closed", queryItems: [URLQueryItem(name: "key", value: key)]))
      var iterator = report.messages.makeAsyncIterator()
      guard case .text(let code)? = try await iterator.next() else { return nil }
      return code
    }

    @Test func cancellingTheReaderClosesWith1001() async throws {
      let key = UUID().uuidString
      let socket = try await connection().webSocket(
        WebSocketEndpoint(path: "echo", queryItems: [URLQueryItem(name: "key", value: key)]))
      let reader = Task {
        for try await _ in socket.messages {}
      }
      // Nothing arrives: only the cancellation ends the loop.
      reader.cancel()
      await #expect(throws: ServerConnectionError.cancelled) { try await reader.value }
      let code = try await closeCode(for: key)
      #expect(code == "1001")
    }

    @Test func lettingTheWebSocketGoClosesWith1001() async throws {
      let key = UUID().uuidString
      do {
        let socket = try await connection().webSocket(
          WebSocketEndpoint(path: "echo", queryItems: [URLQueryItem(name: "key", value: key)]))
        try await socket.send(.text("hello"))
      }
      let code = try await closeCode(for: key)
      #expect(code == "1001")
    }

    @Test func closingSendsTheCodeGiven() async throws {
      let key = UUID().uuidString
      let socket = try await connection().webSocket(
        WebSocketEndpoint(path: "echo", queryItems: [URLQueryItem(name: "key", value: key)]))
      await socket.close(code: WebSocketCloseCode(rawValue: 4321), reason: "bye")
      let code = try await closeCode(for: key)
      #expect(code == "4321")
    }
  }
#endif

#if os(Linux)
  /// Calls go to a stub (the token endpoint); WebSockets go over curl to the `websockets` server.
  private final class TokenEndpointAndWebSockets: HTTPTransport, WebSocketChannelOpening {
    let stub: StubTransport
    let curl: CurlTransport

    init(issuing token: String) throws {
      stub = StubTransport { _ in
        .json(["access_token": token, "token_type": "bearer", "expires_in": 3_600])
      }
      curl = try CurlTransport()
    }

    func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
      try await stub.send(request)
    }

    func openWebSocketChannel(to url: URL, timeout: TimeInterval)
      async throws(TransportFailure) -> any WebSocketChannel
    {
      try await curl.openWebSocketChannel(to: url, timeout: timeout)
    }
  }

  /// An upgrade refused with 401 renews the session's token once, as a call does.
  @Suite(.needs(.websockets), .timeLimit(.minutes(2)))
  struct WebSocketAuthenticationTests {
    private func connection(renewedTo token: String) throws -> (
      ServerConnection, TokenEndpointAndWebSockets
    ) {
      let transport = try TokenEndpointAndWebSockets(issuing: token)
      var authentication = AuthenticationConfiguration()
      authentication.client = OAuthClient(
        id: "app", secret: "client-s3cret", authenticationMethod: .clientSecretPost,
        endpoints: OAuthEndpoints(token: "oauth/token"))
      var configuration = ServerConfiguration(
        environment: .local,
        baseURL: WebSocketServer.shared.base(secure: false), authentication: authentication)
      configuration.timeout = 300
      let connection = ServerConnection(configuration: configuration, transport: transport)
      try connection.login(
        session: Session(
          accessToken: AccessToken(
            value: "stale-token", expiresAt: Date().addingTimeInterval(3_600),
            refreshToken: "refresh-r1")))
      return (connection, transport)
    }

    @Test func a401OnTheUpgradeRenewsTheTokenOnceAndOpens() async throws {
      let (connection, transport) = try connection(renewedTo: "good-token")
      let socket = try await connection.webSocket(
        WebSocketEndpoint(path: "private", requiresAuthentication: true))
      try await socket.send(.text("in"))
      var iterator = socket.messages.makeAsyncIterator()
      #expect(try await iterator.next() == .text("in"))
      #expect(transport.stub.requests.count == 1)
      await socket.close()
    }

    @Test func aTokenStillRefusedAfterTheRenewalIsTheServers401() async throws {
      let (connection, transport) = try connection(renewedTo: "another-bad-token")
      let error = await #expect(throws: ServerConnectionError.self) {
        _ = try await connection.webSocket(
          WebSocketEndpoint(path: "private", requiresAuthentication: true))
      }
      #expect(error?.statusCode == 401)
      #expect(transport.stub.requests.count == 1)
    }
  }
#endif

#if os(Linux)
  /// WebSockets through proxy.py with Basic credentials: a `CONNECT` tunnel for `ws` and `wss`.
  @Suite(.needs(.websockets, .proxyPy), .timeLimit(.minutes(2)))
  struct WebSocketProxyTests {
    private func connection(secure: Bool, proxyPort: Int) throws -> ServerConnection {
      let server = WebSocketServer.shared
      let transport = try CurlTransport(
        tls: TLSConfiguration(trustedCertificates: [.file(server.caFile)]),
        proxy: ProxyConfiguration(
          kind: .http, host: "127.0.0.1", port: proxyPort,
          credentials: .init(user: ProxyServer.user, password: ProxyServer.password)))
      return try server.connection(secure: secure, transport: transport)
    }

    @Test(arguments: [false, true])
    func messagesGoThroughTheProxysTunnel(secure: Bool) async throws {
      let socket = try await connection(
        secure: secure, proxyPort: ProxyServer.shared.authenticatingPort
      ).webSocket(WebSocketEndpoint(path: "echo"))
      try await socket.send(.text("through the proxy"))
      var iterator = socket.messages.makeAsyncIterator()
      #expect(try await iterator.next() == .text("through the proxy"))
      await socket.close()
    }

    @Test func aProxyNobodyRunsFailsTheWebSocket() async throws {
      // Nobody listens there: only a connection that bypassed the proxy could succeed.
      let closed = try closedLoopbackPort()
      await #expect(throws: ServerConnectionError.self) {
        _ = try await connection(secure: false, proxyPort: closed).webSocket(
          WebSocketEndpoint(path: "echo"))
      }
    }
  }
#endif

#if os(Linux)
  /// A WebSocket as a step of a job: in a chain after a call, and stopped by the job's token.
  @Suite(.needs(.websockets), .timeLimit(.minutes(2)))
  struct WebSocketJobTests {
    private func connection() throws -> ServerConnection {
      try WebSocketServer.shared.connection()
    }

    @Test func aChainOpensTheLiveChannelWithWhatTheStepBeforeMade() async throws {
      let connection = try connection()
      let chain = connection.webSocketOperation(
        for: WebSocketEndpoint(path: "speak", queryItems: [URLQueryItem(name: "count", value: "3")])
      ) { socket in
        var texts: [String] = []
        for try await case .text(let text) in socket.messages { texts.append(text) }
        return texts
      }
      .then { texts in
        connection.webSocketOperation(for: WebSocketEndpoint(path: "echo")) { socket in
          try await socket.send(.text(texts.joined(separator: ",")))
          for try await case .text(let echoed) in socket.messages { return echoed }
          return ""
        }
      }
      #expect(try await connection.run(chain) == "1,2,3")
    }

    @Test func theJobsTokenClosesTheWebSocketWith1001() async throws {
      let connection = try connection()
      let key = UUID().uuidString
      let opened = AsyncStream<Void>.makeStream()
      let operation = connection.webSocketOperation(
        for: WebSocketEndpoint(path: "echo", queryItems: [URLQueryItem(name: "key", value: key)])
      ) { socket in
        opened.continuation.yield()
        for try await _ in socket.messages {}
        return 0
      }
      let finished = AsyncStream<Result<Int, any Error>>.makeStream()
      let token = connection.run(operation) { finished.continuation.yield($0) }
      var openings = opened.stream.makeAsyncIterator()
      _ = await openings.next()
      token.cancel()
      var results = finished.stream.makeAsyncIterator()
      let result = await results.next()
      #expect(throws: ServerConnectionError.cancelled) { try result?.get() }
      let report = try await connection.webSocket(
        WebSocketEndpoint(path: "closed", queryItems: [URLQueryItem(name: "key", value: key)]))
      var iterator = report.messages.makeAsyncIterator()
      #expect(try await iterator.next() == .text("1001"))
    }
  }
#endif

#if os(Linux)
  /// A connect that never finishes (a TLS handshake with a server that speaks plain HTTP and
  /// waits for a request) is stopped by the task's cancellation, not left to the timeout.
  @Suite(.timeLimit(.minutes(2)))
  struct WebSocketConnectCancellationTests {
    @Test func cancellingStopsATLSHandshakeInProgress() async throws {
      let server = try await MockServer.started()
      var configuration = ServerConfiguration(
        environment: .local, baseURL: URL(string: "https://127.0.0.1:\(server.port)/")!)
      configuration.timeout = 120
      let connection = ServerConnection(
        configuration: configuration, transport: try CurlTransport())
      let opening = Task { try await connection.webSocket(WebSocketEndpoint(path: "echo")) }
      let connected = try await poll { server.statistics.connectionsOpened == 1 ? true : nil }
      #expect(connected == true)
      opening.cancel()
      let error = await #expect(throws: ServerConnectionError.self) { try await opening.value }
      guard case .transportFailed(let failure, _)? = error else {
        Issue.record("expected the connect to be stopped, got \(String(describing: error))")
        return
      }
      #expect(failure.kind == .cancelled)
      await server.shutdown()
    }
  }
#endif
