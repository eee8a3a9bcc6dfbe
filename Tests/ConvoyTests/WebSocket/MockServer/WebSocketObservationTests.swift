import Convoy
import ConvoyTesting
import Foundation
import Testing

#if os(Linux)
  /// A WebSocket's events, metrics and trace context, on a mock server over libcurl.
  @Suite(.timeLimit(.minutes(1))) struct WebSocketObservationTests {
    private func connection(
      to server: MockServer, events: Recorder<ConvoyEvent>, tracing: (any CallTracing)? = nil
    ) throws -> ServerConnection {
      ServerConnection(
        configuration: ServerConfiguration(environment: .local, baseURL: server.baseURL),
        transport: try CurlTransport(), observers: [AnyEventObserver { events.append($0) }],
        tracing: tracing)
    }

    @Test func aWebSocketReportsItsOpeningEachMessagesSizeAndItsEndWithItsMetrics() async throws {
      let server = try await MockServer.started()
      server.route("/live", answer: .webSocketEcho())
      let events = Recorder<ConvoyEvent>()
      let socket = try await connection(to: server, events: events).webSocket(
        WebSocketEndpoint(
          path: "live", options: WebSocketOptions(compression: false, pingInterval: nil)))
      try await socket.send(.text("secret words"))
      try await socket.send(.binary(Data(count: 300)))
      var iterator = socket.messages.makeAsyncIterator()
      _ = try await iterator.next()
      _ = try await iterator.next()
      await socket.close()
      await server.shutdown()

      let kinds = events.all.map(\.name)
      #expect(kinds.first == .webSocketOpened)
      #expect(kinds.last == .webSocketClosed)
      let moved = events.all.compactMap { event -> ConvoyEvent.WebSocketMessageMoved? in
        guard case .webSocketMessage(let message) = event.kind else { return nil }
        return message
      }
      #expect(moved.map(\.direction) == [.sent, .sent, .received, .received])
      #expect(moved.map(\.size) == [12, 300, 12, 300])
      #expect(Set(events.all.compactMap(\.call?.id)).count == 1)
      guard case .webSocketClosed(let closed)? = events.all.last?.kind else { return }
      #expect(closed.clientCode == 1000)
      #expect(closed.serverCode == 1000)
      #expect(closed.errorCategory == nil)
      #expect(closed.metrics.messagesSent == 2)
      #expect(closed.metrics.messagesReceived == 2)
      #expect(closed.metrics.bytesSent == 312)
      #expect(closed.metrics.bytesReceived == 312)
      // Frames add headers and masks: more went over the wire than the messages hold.
      #expect(closed.metrics.wireBytesSent > 312)
      #expect(closed.metrics.wireBytesReceived > 312)
      #expect(socket.metrics.messagesSent == 2)
      // Sizes, never contents.
      let lines = events.all.map { String(decoding: JSONLinesLogger.encode($0), as: UTF8.self) }
      #expect(!lines.contains { $0.contains("secret words") })
      #expect(lines.contains { $0.contains("\"event\":\"websocket.closed\"") })
    }

    @Test func compressionShowsInTheRatio() async throws {
      let server = try await MockServer.started()
      server.route("/live", answer: .webSocketEcho(compression: MockWebSocketCompression()))
      let events = Recorder<ConvoyEvent>()
      let socket = try await connection(to: server, events: events).webSocket(
        WebSocketEndpoint(path: "live", options: WebSocketOptions(pingInterval: nil)))
      let text = String(repeating: "the same words again ", count: 500)
      try await socket.send(.text(text))
      var iterator = socket.messages.makeAsyncIterator()
      #expect(try await iterator.next() == .text(text))
      let metrics = socket.metrics
      #expect((metrics.sentCompressionRatio ?? 0) > 10)
      #expect((metrics.receivedCompressionRatio ?? 0) > 10)
      await socket.close()
      await server.shutdown()
    }

    @Test func aRefusedUpgradeEndsWithItsCategory() async throws {
      let server = try await MockServer.started()
      server.route("/live", answer: .status(403))
      let events = Recorder<ConvoyEvent>()
      await #expect(throws: ServerConnectionError.self) {
        _ = try await connection(to: server, events: events).webSocket(
          WebSocketEndpoint(path: "live"))
      }
      await server.shutdown()
      guard case .webSocketClosed(let closed)? = events.all.last?.kind else {
        Issue.record("no websocket.closed in \(events.all.map(\.name))")
        return
      }
      #expect(closed.errorCategory == .forbidden)
      #expect(!events.all.contains { $0.name == .webSocketOpened })
    }

    @Test func theUpgradeCarriesTheTasksTraceAndTheSpansContext() async throws {
      let server = try await MockServer.started()
      server.route("/live", answer: .webSocketEcho())
      let trace = TraceContext.newTrace()
      let socket = try await TraceContext.$current.withValue(trace) {
        try await connection(to: server, events: Recorder()).webSocket(
          WebSocketEndpoint(path: "live", options: WebSocketOptions(pingInterval: nil)))
      }
      let upgrade = try await server.takeRequest()
      #expect(upgrade.headers["traceparent"]?.contains(trace.traceID) == true)
      await socket.close()

      let tracer = RecordingTracer()
      let traced = try await connection(to: server, events: Recorder(), tracing: tracer)
        .webSocket(WebSocketEndpoint(path: "live", options: WebSocketOptions(pingInterval: nil)))
      #expect(try await server.takeRequest().headers["traceparent"] == RecordingTracer.header)
      #expect(tracer.ends.all.isEmpty)
      await traced.close()
      #expect(await eventually { tracer.ends.all == ["finished 101"] })
      await server.shutdown()
    }
  }

  /// A tracer whose spans send a fixed `traceparent` and record how they ended.
  private final class RecordingTracer: CallTracing, @unchecked Sendable {
    static let header = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    let ends = Recorder<String>()

    func startSpan(for call: TracedCall) -> any CallSpan { Span(ends: ends) }

    final class Span: CallSpan, @unchecked Sendable {
      let ends: Recorder<String>
      init(ends: Recorder<String>) { self.ends = ends }
      func headers(forAttempt attempt: Int) -> HTTPHeaders {
        ["traceparent": RecordingTracer.header]
      }
      func finished(status: Int, metrics: CallMetrics) { ends.append("finished \(status)") }
      func failed(_ error: any Error, metrics: CallMetrics) { ends.append("failed") }
    }
  }
#endif
