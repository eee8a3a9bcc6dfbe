import Convoy
import Foundation

/// Convoy's WebSockets: one `ServerConnection` on `CurlTransport` (as the peer benchmark builds
/// it) opens them all.
struct ConvoyConnector: EchoConnector {
  let connection: ServerConnection

  init(port: Int) throws {
    #if os(Linux)
      connection = ServerConnection(
        configuration: ServerConfiguration(
          environment: .local, baseURL: URL(string: "http://127.0.0.1:\(port)")!),
        transport: try CurlTransport())
    #else
      throw EchoBenchmarkError("Convoy's WebSockets need CurlTransport (Linux)")
    #endif
  }

  func connect(compression: Bool) async throws -> any EchoClient {
    // Convoy's defaults but for compression (on by default): a 16 MiB message limit, 64
    // messages buffered for the reader, a ping every 20 s.
    let socket = try await connection.webSocket(
      WebSocketEndpoint(path: "echo", options: WebSocketOptions(compression: compression)))
    guard socket.isCompressed == compression else {
      await socket.close()
      throw EchoBenchmarkError(
        "Convoy: permessage-deflate \(compression ? "not agreed" : "agreed unasked")")
    }
    return ConvoyEchoClient(socket: socket)
  }
}

/// One task sends and reads, as an application echoing with `for try await` would: the window's
/// first messages, then one more for each echo while the deadline has not passed. The task
/// prefers the WebSocket's `executor`, as Docs/WebSocket.md advises for quick answers: it runs
/// on the thread that reads the socket, as websocket-kit's callback runs on its event loop.
final class ConvoyEchoClient: EchoClient {
  let socket: WebSocket

  init(socket: WebSocket) {
    self.socket = socket
  }

  func exchange(_ payload: Payload, window: Int, until deadline: ContinuousClock.Instant)
    async throws -> Exchange
  {
    try await withTaskExecutorPreference(socket.executor) {
      try await run(payload, window: window, until: deadline)
    }
  }

  private func run(_ payload: Payload, window: Int, until deadline: ContinuousClock.Instant)
    async throws -> Exchange
  {
    var exchange = Exchange()
    var outstanding = 0
    for _ in 0..<window {
      try await socket.send(.binary(payload.data))
      outstanding += 1
    }
    var messages = socket.messages.makeAsyncIterator()
    while outstanding > 0 {
      guard let message = try await messages.next() else {
        throw EchoBenchmarkError("Convoy: the WebSocket closed")
      }
      outstanding -= 1
      exchange.messages += 1
      if message.bytes.count != payload.count { exchange.mismatched += 1 }
      if ContinuousClock.now < deadline {
        try await socket.send(.binary(payload.data))
        outstanding += 1
      }
    }
    return exchange
  }

  func close() async {
    await socket.close()
  }
}
