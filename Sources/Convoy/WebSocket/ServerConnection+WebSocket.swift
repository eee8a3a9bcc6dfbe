import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension ServerConnection {
  /// Opens a WebSocket to `endpoint` on this connection's server: its base URL (`https` becomes
  /// `wss`), default headers, cookies, TLS settings and proxy, and, when the endpoint requires
  /// it, the session's access token (renewed once if the server answers the upgrade with 401).
  ///
  /// - Throws: ``ServerConnectionError``: `httpError` for an answer other than 101, `timedOut`
  ///   when the upgrade took longer than ``WebSocketOptions/handshakeTimeout``,
  ///   `transportFailed` when the connection failed (`notSupportedByTransport` on a transport
  ///   that cannot open one: WebSockets need ``CurlTransport`` on Linux), `notAuthenticated`
  ///   and the other session errors; ``WebSocketError`` when the handshake broke RFC 6455.
  public func webSocket(_ endpoint: WebSocketEndpoint) async throws -> WebSocket {
    let emitter = EventEmitter.call(observers: observers, jobID: nil, method: .get)
    let startedAt = Date()
    let url = try? configuration.url(path: endpoint.path, queryItems: endpoint.queryItems)
    let span = tracing?.startSpan(for: TracedCall(method: .get, url: url))
    do {
      return try await openWebSocket(
        endpoint, emitter: emitter, span: span, startedAt: startedAt)
    } catch {
      // The upgrade failed: the WebSocket ends here, reported as every WebSocket's end is.
      span?.failed(error, metrics: CallMetricsRecorder().snapshot())
      emitter.emit(
        .webSocketClosed(
          .init(
            call: emitter.call, url: url, clientCode: nil, serverCode: nil, reason: "",
            errorCategory: error.isCancellation ? nil : ErrorMessageProvider.category(of: error),
            duration: Date().timeIntervalSince(startedAt), metrics: WebSocketMetrics())))
      throw error
    }
  }

  private func openWebSocket(
    _ endpoint: WebSocketEndpoint, emitter: EventEmitter, span: (any CallSpan)?,
    startedAt: Date
  ) async throws -> WebSocket {
    let url = try configuration.url(path: endpoint.path, queryItems: endpoint.queryItems)
    let context = ErrorContext(method: .get, url: url)
    guard let (opener, jars) = Self.webSocketOpener(under: transport) else {
      throw ServerConnectionError.transportFailed(
        TransportFailure(
          kind: .notSupportedByTransport,
          detail: "\(type(of: transport)) cannot open WebSockets; CurlTransport can (Linux)"),
        context)
    }
    let zlib = endpoint.options.compression ? try? ZlibLibrary.shared.get() : nil
    let deflate = PerMessageDeflateConfiguration()
    let handshake = try WebSocketHandshake(
      subprotocols: endpoint.subprotocols, extensionOffer: zlib == nil ? nil : deflate.offer)
    var token: AccessToken?
    if endpoint.requiresAuthentication {
      guard AccessTokenSigning.mayCarryToken(to: url, configuration: configuration) else {
        throw ServerConnectionError.insecureDestination(context)
      }
      token = try await sessionToken(for: context) {
        try await authentication.currentToken(for: nil)
      }
    }
    var renewed = false
    var attempt = 0
    while true {
      attempt += 1
      let channel: any WebSocketChannel
      let head: WebSocketUpgradeHead
      var timeout = endpoint.options.handshakeTimeout ?? configuration.timeout
      if endpoint.waitsForConnectivity ?? configuration.waitsForConnectivity,
        let monitor = pipeline.offlineMonitor(for: url)
      {
        let waited = configuration.clock.now
        try await waitForConnectivity(
          monitor, upTo: timeout, to: url, context: context, emitter: emitter, attempt: attempt)
        timeout -= configuration.clock.now.timeIntervalSince(waited)
      }
      let started = configuration.clock.now
      do {
        channel = try await opener.openWebSocketChannel(to: url, timeout: timeout)
      } catch {
        // Offline, a refused connection is the same fault as on every transport and for calls.
        throw ServerConnectionError.transportFailed(
          pipeline.offlineMonitor(for: url) == nil ? error : CallPipeline.offlineAware(error),
          context)
      }
      // A server that accepts the connection and never answers the upgrade must not hold the
      // caller for ever: the rest of the handshake gets what the connection left of `timeout`.
      let expired = Locked(false)
      let timer = configuration.clock.schedule(
        after: max(0, timeout - configuration.clock.now.timeIntervalSince(started))
      ) {
        expired.withLock { $0 = true }
        channel.close()
      }
      do {
        defer { timer.cancel() }
        let fields = upgradeFields(
          for: url, endpoint: endpoint, handshake: handshake, token: token, jars: jars,
          span: span, attempt: attempt)
        try await channel.write(WebSocketUpgradeHead.request(for: url, fields: fields))
        head = try await WebSocketUpgradeHead.read(
          from: channel, limit: configuration.responseLimits.maximumHeadSize)
      } catch {
        channel.close()
        if expired.current { throw ServerConnectionError.timedOut(context) }
        throw ServerConnectionError.transportFailed(error, context)
      }
      for jar in jars {
        jar.store(setCookieFields: head.headers.values(for: "Set-Cookie"), from: url)
      }
      if head.status == 401, let stale = token, !renewed {
        channel.close()
        renewed = true
        token = try await sessionToken(for: context) {
          try await authentication.renewedToken(replacing: stale.value, for: nil)
        }
        continue
      }
      guard head.status == 101 else {
        channel.close()
        throw ServerConnectionError.httpError(
          head.status, ErrorContext(method: .get, url: url, statusCode: head.status))
      }
      do {
        let agreement = try handshake.validate(status: head.status, headers: head.headers)
        let parameters = try deflate.negotiate(answer: agreement.extensions.first)
        let session = WebSocketSession(
          channel: channel, leftover: head.leftover, options: endpoint.options,
          deflate: parameters, zlib: zlib, clock: configuration.clock,
          observation: WebSocketObservation(
            emitter: emitter, span: span, url: url, startedAt: startedAt))
        emitter.emit(
          .webSocketOpened(
            .init(
              call: emitter.call, url: url, subprotocol: agreement.subprotocol,
              isCompressed: parameters != nil,
              duration: Date().timeIntervalSince(startedAt))))
        return WebSocket(
          subprotocol: agreement.subprotocol, isCompressed: parameters != nil, session: session,
          decoder: decoder)
      } catch {
        channel.close()
        throw WebSocketError(kind: .handshakeFailed, detail: "\(error)")
      }
    }
  }

  /// Waits until `monitor` no longer says offline, for at most `timeout` seconds.
  ///
  /// - Throws: An offline ``ServerConnectionError/transportFailed(_:_:)`` when `timeout` passes
  ///   first, ``ServerConnectionError/cancelled`` when the task is cancelled.
  private func waitForConnectivity(
    _ monitor: any ConnectivityMonitor, upTo timeout: TimeInterval, to url: URL,
    context: ErrorContext, emitter: EventEmitter, attempt: Int
  ) async throws {
    emitter.emit(
      .requestWaitingForConnectivity(
        .init(call: emitter.call, url: url, attempt: attempt, timeLeft: timeout)))
    let offline = ServerConnectionError.transportFailed(
      TransportFailure(
        kind: .notConnectedToInternet, detail: "no network before the handshake's timeout"),
      context)
    try await DeadlineRace.run(
      until: configuration.clock.now.addingTimeInterval(timeout), on: configuration.clock,
      timedOut: offline
    ) {
      guard await monitor.waitUntilOnline() else { throw ServerConnectionError.cancelled }
    }
  }

  /// The header fields of the upgrade request: the handshake's, the endpoint's, the
  /// connection's defaults, cookies and the token.
  private func upgradeFields(
    for url: URL, endpoint: WebSocketEndpoint, handshake: WebSocketHandshake,
    token: AccessToken?, jars: [CookieJar], span: (any CallSpan)?, attempt: Int
  ) -> HTTPHeaders {
    var request = URLRequest(url: url)
    for field in endpoint.headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
    for field in configuration.defaultHeaders
    where request.value(forHTTPHeaderField: field.name) == nil {
      request.setValue(field.value, forHTTPHeaderField: field.name)
    }
    DefaultHeaders().fill(&request)
    // The trace goes with the upgrade as with every attempt of a call: the span's context, or
    // the task's.
    TraceContext.current?.apply(to: &request)
    for field in span?.headers(forAttempt: attempt) ?? [:] {
      request.setValue(field.value, forHTTPHeaderField: field.name)
    }
    let cookies = jars.compactMap { $0.cookieHeader(for: url) }
    if !cookies.isEmpty {
      request.setValue(cookies.joined(separator: "; "), forHTTPHeaderField: "Cookie")
    }
    if let token {
      request.setValue(token.authorizationHeaderValue, forHTTPHeaderField: "Authorization")
    }
    var fields = handshake.requestHeaders
    for (name, value) in request.allHTTPHeaderFields ?? [:]
    where !fields.contains(name) && name.lowercased() != "accept-encoding" {
      fields.add(name: name, value: value)
    }
    return fields
  }

  /// The session's token, its refusals as the errors calls get.
  private func sessionToken(
    for context: ErrorContext, _ get: () async throws -> AccessToken
  ) async throws -> AccessToken {
    do {
      return try await get()
    } catch let refusal as SessionController.Refusal {
      throw refusal.error(context: context)
    }
  }

  /// The transport that opens WebSocket connections under `transport`'s decorators, and the
  /// cookie jars on the way.
  private static func webSocketOpener(under transport: any HTTPTransport)
    -> (any WebSocketChannelOpening, [CookieJar])?
  {
    var current = transport
    var jars: [CookieJar] = []
    for _ in 0..<8 {
      if let opener = current as? any WebSocketChannelOpening { return (opener, jars) }
      if let cookies = current as? CookieTransport {
        jars.append(cookies.jar)
        current = cookies.transport
      } else if let caching = current as? CachingTransport {
        current = caching.transport
      } else if let coalescing = current as? CoalescingTransport {
        current = coalescing.transport
      } else {
        return nil
      }
    }
    return nil
  }
}
