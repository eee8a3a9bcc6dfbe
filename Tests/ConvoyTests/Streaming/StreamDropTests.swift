import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A stream the app lets go without reading it to the end closes its transfer and gives its
/// network slot back, and says so to observers.
@Suite struct StreamDropTests {
  /// An answer far larger than the stream's buffer, so its transfer is still running (paused)
  /// when the stream is let go.
  private static let largeAnswer = StubAnswer.response(
    status: 200, headers: [:], body: Data(count: 1 << 20))

  @Test func aStreamLetGoUnreadClosesItsTransferAndFreesTheOnlySlot() async throws {
    let events = Locked<[ConvoyEvent]>([])
    let connection = ServerConnection(
      configuration: probeConfiguration,
      transport: StubTransport { request in
        request.urlRequest.url?.path == "/feed" ? Self.largeAnswer : .json(["ok": true])
      },
      observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }],
      networkConcurrencyLimit: 1)
    try await openAndDrop(on: connection)
    let closed = await eventually {
      events.withLock { $0.contains { $0.name == .requestCancelled } }
    }
    #expect(closed, "the dropped stream's call never ended")
    guard closed else { return }
    let notices = events.withLock {
      $0.compactMap { event -> String? in
        if case .notice(let notice) = event.kind { return notice.text }
        return nil
      }
    }
    #expect(notices.contains { $0.contains("let go before its body was read") })
    // With one slot, this call can only run once the dropped stream gave it back.
    let answer = try await connection.execute(RawStubCall(path: "next"))
    #expect(answer.response.statusCode == 200)
  }

  @Test func aLoopThatStopsEarlyStillEndsItsCallAsFinished() async throws {
    let events = Locked<[ConvoyEvent]>([])
    let connection = observedConnection(StubTransport { _ in Self.largeAnswer }, events: events)
    let stream = try await connection.stream(
      RawStubCall(path: "feed"), options: StreamOptions(bufferSize: 1024))
    for try await _ in stream.body { break }
    let ended = await eventually {
      events.withLock { $0.contains { $0.name == .requestFinished } }
    }
    #expect(ended)
    #expect(!events.withLock { $0.contains { $0.name == .requestCancelled } })
  }

  /// Opens a stream and lets it go at once, without touching its body.
  private func openAndDrop(on connection: ServerConnection) async throws {
    let stream = try await connection.stream(
      RawStubCall(path: "feed"), options: StreamOptions(bufferSize: 1024))
    #expect(stream.head.statusCode == 200)
  }
}
