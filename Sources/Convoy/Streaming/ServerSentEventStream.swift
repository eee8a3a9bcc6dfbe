import Foundation

/// The events of a `text/event-stream` answer, across as many connections as it takes.
///
/// ```swift
/// for try await event in connection.events(FeedRequest()) {
///   print(event.type, event.data)
/// }
/// ```
///
/// Every connection travels the road of any call, so an expired token is renewed when the
/// stream reconnects. Reconnections are reported to the connection's observers as
/// ``ConvoyEvent/Kind/streamReconnecting(_:)``.
public struct ServerSentEventStream<Request: RequestDescribing>: AsyncSequence, Sendable {
  /// One event.
  public typealias Element = ServerSentEvent

  let connection: ServerConnection
  let request: Request
  let options: EventStreamOptions

  /// Creates the iterator, which opens the first connection on its first `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(stream: self)
  }

  /// Reads events, reconnecting as the stream's rules say.
  public struct Iterator: AsyncIteratorProtocol {
    private let stream: ServerSentEventStream
    private var body: ResponseBody.Iterator?
    private var parser = ServerSentEventParser()
    private var pending: [ServerSentEvent] = []
    private var lastEventID: String
    private var serverDelay: TimeInterval?
    private var reconnections = 0
    /// Failed connections in a row, for backing off while the server is away.
    private var failuresInARow = 0
    private var isOver = false

    init(stream: ServerSentEventStream) {
      self.stream = stream
      self.lastEventID = stream.options.lastEventID ?? ""
    }

    /// The next event, or `nil` once the server said there are no more (`204`).
    ///
    /// - Throws: ``ServerConnectionError``: an error status, an answer that is not an event
    ///   stream (``ServerConnectionError/unexpectedResponse(_:)``), a failure that outlasted
    ///   ``EventStreamOptions/maximumReconnections``, or ``ServerConnectionError/cancelled``.
    public mutating func next() async throws -> ServerSentEvent? {
      while !isOver {
        if !pending.isEmpty { return pending.removeFirst() }
        if body == nil {
          try await open()
          continue
        }
        do {
          guard let chunk = try await body!.next() else {
            try await reconnect(after: "the server ended the stream")
            continue
          }
          pending.append(contentsOf: try parser.events(in: chunk))
          lastEventID = parser.lastEventID
          serverDelay = parser.reconnectionDelay ?? serverDelay
          failuresInARow = 0
        } catch let error as ServerConnectionError where Self.isDrop(error) {
          try await reconnect(after: String(describing: error))
        } catch let error as StreamFormatError {
          body = nil
          isOver = true
          throw error
        }
      }
      return nil
    }

    private mutating func open() async throws {
      var headers: HTTPHeaders = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
      if !lastEventID.isEmpty { headers["Last-Event-ID"] = lastEventID }
      let opened: ResponseStream
      do {
        opened = try await stream.connection.stream(
          RequestWithExtraHeaders(base: stream.request, extraHeaders: headers),
          options: stream.options.stream)
      } catch let error as ServerConnectionError where Self.isDrop(error) {
        failuresInARow += 1
        try await reconnect(after: String(describing: error), lastFailure: error)
        return
      } catch {
        isOver = true
        throw error
      }
      if opened.head.statusCode == 204 {
        isOver = true
        return
      }
      let type = opened.head.headers["Content-Type"]?.lowercased() ?? ""
      guard type.hasPrefix("text/event-stream") else {
        isOver = true
        throw ServerConnectionError.unexpectedResponse(
          ErrorContext(
            method: stream.request.method, url: opened.head.url,
            statusCode: opened.head.statusCode))
      }
      // The last event id outlives the connection it came on (WHATWG HTML §9.2.6).
      parser = ServerSentEventParser(lastEventID: lastEventID)
      body = opened.body.makeAsyncIterator()
    }

    /// Waits the reconnection delay, then lets the loop open the stream again.
    private mutating func reconnect(
      after reason: String, lastFailure: ServerConnectionError? = nil
    ) async throws {
      body = nil
      parser.finish()
      if let failure = parser.failure {
        isOver = true
        throw failure
      }
      if let limit = stream.options.maximumReconnections, reconnections >= limit {
        isOver = true
        throw lastFailure ?? ServerConnectionError.cancelled
      }
      reconnections += 1
      let delay = reconnectionDelay()
      let events = EventEmitter.call(
        observers: stream.connection.observers, jobID: nil, method: stream.request.method)
      events.emit(
        .streamReconnecting(
          .init(
            call: events.call,
            url: try? stream.connection.configuration.url(path: stream.request.path),
            attempt: reconnections, delay: delay, reason: reason)))
      do {
        try await stream.connection.configuration.clock.sleep(for: delay)
      } catch {
        isOver = true
        throw ServerConnectionError.cancelled
      }
    }

    /// The server's delay (or the default), doubled for each failed connection in a row, jittered
    /// with the request's retry policy, and capped.
    private func reconnectionDelay() -> TimeInterval {
      let base = serverDelay ?? stream.options.reconnectionDelay
      let backedOff = base * pow(2, Double(Swift.min(failuresInARow, 10)))
      let policy = stream.request.retryPolicy ?? stream.connection.configuration.retryPolicy
      return Swift.min(stream.options.maximumReconnectionDelay, policy.jittered(backedOff))
    }

    /// A connection that could not be made or broke off, as opposed to an answer that refused.
    private static func isDrop(_ error: ServerConnectionError) -> Bool {
      switch error {
      case .timedOut: return true
      case .transportFailed(let failure, _):
        return [.networkConnectionLost, .timedOut, .cannotConnectToHost, .notConnectedToInternet]
          .contains(failure.kind)
      default: return false
      }
    }
  }
}

extension ServerConnection {
  /// The server-sent events of `request`'s answer, reconnecting as the event-stream rules say.
  ///
  /// ```swift
  /// for try await event in connection.events(FeedRequest()) {
  ///   print(event.data)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - request: What to send; `Accept: text/event-stream` and `Last-Event-ID` are added.
  ///   - options: Reconnection delays and limits, and each connection's stream options.
  /// - Returns: The events, read as they arrive.
  public func events<Request: RequestDescribing>(
    _ request: Request, options: EventStreamOptions = EventStreamOptions()
  ) -> ServerSentEventStream<Request> {
    ServerSentEventStream(connection: self, request: request, options: options)
  }
}
