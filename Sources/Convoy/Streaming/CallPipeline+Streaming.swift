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
      observers: observers, jobID: jobID, method: request.method, metrics: metrics,
      span: tracing != nil ? startSpan(for: request) : nil)
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
    var received = await exchange(
      request, timeout: headTimeout, context: context,
      delivery: .streamed(bufferCapacity: options.bufferSize, spillsToDisk: options.spillsToDisk))
    // An error answer's excerpt, read for the error's message; a good answer's body is the
    // caller's to read.
    if case .success(let answer) = received, let body = answer.body,
      !context.acceptableStatusCodes.contains(answer.response.statusCode)
    {
      let excerpt = await body.readExcerpt(limit: Self.errorBodyLimit)
      let head = answer.response.head
      received = .success(
        Received(
          response: TransportResponse(
            head: head, data: excerpt,
            metrics: TransferMetrics(
              startDate: Date(), duration: 0, bytesReceived: excerpt.count, bytesSent: 0)),
          body: body))
    }
    return received
  }
}
