import Foundation

extension CallPipeline {
  /// The most bytes of an error answer's body read for the error's message before the transfer
  /// is closed: enough for any message meant for people, bounded against a server that streams
  /// an endless error.
  static let errorBodyLimit = 64 << 10

  /// Opens `request` as a stream on the same road as a buffered call: adapters and signing, then
  /// the decisions judge the head (renewing, retrying, following redirects, validating the
  /// status) before the caller sees a byte.
  ///
  /// Decoding is left out of the chain, since the caller reads the body itself. An answer whose
  /// status the request does not accept has its body read up to ``errorBodyLimit`` so that the
  /// error carries the server's message.
  func openStream<Request: RequestDescribing>(
    _ request: Request, options: StreamOptions
  ) async throws -> ResponseStream {
    let events = EventEmitter.call(
      observers: observers, jobID: jobID, method: request.method, metrics: metrics)
    let start = Date()
    let describedURL = events.isObserved ? try? configuration.url(path: request.path) : nil
    events.emit(.requestCreated(.init(call: events.call, url: describedURL)))
    do {
      let chain = (request.decisions ?? decisions).filter { !($0 is ResponseDecoding) }
      let (stream, status) = try await attempts(
        of: request, events: events, chain: chain, timeout: options.headTimeout,
        send: { transportRequest, remaining, context in
          await openBody(
            transportRequest, headTimeout: remaining, options: options, context: context)
        },
        settle: { _, received, context in
          let head = received.response.head
          guard let body = received.body, context.acceptableStatusCodes.contains(head.statusCode)
          else {
            received.body?.cancel()
            throw ServerConnectionError.httpError(
              head.statusCode,
              context.errorContext(statusCode: head.statusCode, body: received.response.data))
          }
          return ResponseStream(
            head: head,
            body: ResponseBody(
              buffer: body,
              errorContext: ErrorContext(method: request.method, url: head.url)))
        })
      // The observer lives in the buffer until the transfer ends, so it holds plain values: a
      // captured stream would hold its own lease and keep a dropped stream's transfer open.
      let url = stream.head.url
      let buffer = stream.body.buffer
      stream.body.whenOver { result in
        if case .success(let transfer) = result { events.metrics.bodyEnded(transfer) }
        let error: (any Error)? =
          switch result {
          case .success: nil
          case .failure(let failure) where failure.kind == .cancelled:
            // A reader that stopped early ended the stream on purpose; a stream let go unread
            // ends its call as cancelled, with a notice, since nothing read what was asked for.
            buffer.closing == .dropped ? ServerConnectionError.cancelled : nil
          case .failure(let failure):
            ServerConnectionError.transportFailed(
              failure, ErrorContext(method: request.method, url: url))
          }
        if buffer.closing == .dropped {
          EventEmitter.notice(
            to: events.observers,
            "A stream of \(request.method.rawValue) \(url.map(SecretRedactor.redact) ?? "?") was "
              + "let go before its body was read; its transfer was closed.")
        }
        if let error {
          events.emitEnd(error, url: url, startedAt: start)
        } else {
          events.emitFinished(url: url, startedAt: start, status: status)
        }
      }
      return stream
    } catch {
      events.emitEnd(error, url: describedURL, startedAt: start)
      throw error
    }
  }

  private func openBody(
    _ request: TransportRequest, headTimeout: TimeInterval, options: StreamOptions,
    context: RequestContext
  ) async -> Result<Received, ServerConnectionError> {
    var request = request
    if let idleTimeout = options.idleTimeout { request.idleTimeout = idleTimeout }
    let opened = await StreamingExchange.open(
      request, transport: transport, policy: configuration.redirectPolicy,
      headTimeout: headTimeout, bufferCapacity: options.bufferSize, clock: configuration.clock,
      metrics: metrics)
    switch opened {
    case .failure(let failure):
      return .failure(Self.error(for: failure, method: context.method))
    case .success(let opened):
      var excerpt = Data()
      if !context.acceptableStatusCodes.contains(opened.head.statusCode) {
        excerpt = await opened.body.readExcerpt(limit: Self.errorBodyLimit)
      }
      let metrics = TransferMetrics(
        startDate: Date(), duration: 0, bytesReceived: excerpt.count, bytesSent: 0)
      return .success(
        Received(
          response: TransportResponse(head: opened.head, data: excerpt, metrics: metrics),
          body: opened.body))
    }
  }

  /// One buffered exchange that reports the request body's progress: it travels as a stream,
  /// since only the streaming side of a transport reports what it sent, and the answer is read
  /// whole (within the call's deadline, like any buffered call) for the decisions.
  func exchangeReportingUpload(
    _ request: TransportRequest, timeout: TimeInterval, context: RequestContext,
    progress: @escaping @Sendable (TransferProgress) -> Void
  ) async -> Result<Received, ServerConnectionError> {
    let started = Date()
    let clock = configuration.clock
    let deadline = clock.now.addingTimeInterval(timeout)
    let opened = await StreamingExchange.open(
      request, transport: transport, policy: configuration.redirectPolicy,
      headTimeout: timeout, bufferCapacity: 1 << 20, clock: clock,
      uploadProgress: progress, metrics: metrics)
    switch opened {
    case .failure(let failure):
      return .failure(Self.error(for: failure, method: context.method))
    case .success(let opened):
      let timer = clock.schedule(after: deadline.timeIntervalSince(clock.now)) {
        opened.body.cancel()
      }
      defer { timer.cancel() }
      var data = Data()
      do {
        while let chunk = try await opened.body.nextChunk() { data.append(chunk) }
      } catch {
        let failure: Exchange.ExchangeFailure =
          clock.now >= deadline
          ? .deadlinePassed(opened.request) : .transport(error, opened.request)
        return .failure(Self.error(for: failure, method: context.method))
      }
      // The body was read to its end, so the transfer's own metrics are in.
      let measured = Locked<TransferMetrics?>(nil)
      opened.body.whenOver { result in measured.withLock { $0 = try? result.get() } }
      let metrics =
        measured.current
        ?? TransferMetrics(
          startDate: started, duration: Date().timeIntervalSince(started),
          bytesReceived: data.count, bytesSent: 0)
      return .success(
        Received(
          response: TransportResponse(head: opened.head, data: data, metrics: metrics), body: nil))
    }
  }
}
