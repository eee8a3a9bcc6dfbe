import Foundation
import HummingbirdWSClient
import HummingbirdWSCompression
import Logging
import NIOCore

/// Hummingbird's WebSocket client (swift-websocket's `WSClient`): `WebSocketClient.connect`
/// runs the connection inside a handler closure until the closure returns, so each socket's
/// closure takes the benchmark's exchanges from a stream and runs them with its own `inbound`
/// and `outbound`. Frames up to 16 MiB; permessage-deflate when asked.
struct WSClientConnector: EchoConnector {
  let port: Int

  func connect(compression: Bool) async throws -> any EchoClient {
    var logger = Logger(label: "wsclient")
    logger.logLevel = .error
    let largest = 1 << 24
    let configuration = WebSocketClientConfiguration(
      maxFrameSize: largest,
      extensions: compression ? [.perMessageDeflate(maxDecompressedFrameSize: largest)] : [])
    let (commands, sink) = AsyncStream.makeStream(of: WSClientEchoClient.Command.self)
    let (started, starter) = AsyncThrowingStream.makeStream(of: Void.self)
    let url = "ws://127.0.0.1:\(port)/echo"
    let connection = Task {
      do {
        try await WebSocketClient.connect(
          url: url, configuration: configuration, logger: logger
        ) { inbound, outbound, _ in
          starter.yield()
          var messages = inbound.messages(maxSize: largest).makeAsyncIterator()
          for await command in commands {
            do {
              command.reply(
                .success(
                  try await WSClientEchoClient.exchange(
                    command, messages: &messages, outbound: outbound)))
            } catch {
              command.reply(.failure(error))
            }
          }
        }
        starter.finish(throwing: EchoBenchmarkError("WSClient: the WebSocket closed"))
      } catch {
        starter.finish(throwing: error)
      }
    }
    for try await _ in started { break }
    return WSClientEchoClient(commands: sink, connection: connection)
  }
}

final class WSClientEchoClient: EchoClient {
  /// An exchange for the socket's handler to run, and where its result goes.
  struct Command: Sendable {
    let payload: ByteBuffer
    let window: Int
    let deadline: ContinuousClock.Instant
    let reply: @Sendable (Result<Exchange, any Error>) -> Void
  }

  private let commands: AsyncStream<Command>.Continuation
  private let connection: Task<Void, Never>

  init(commands: AsyncStream<Command>.Continuation, connection: Task<Void, Never>) {
    self.commands = commands
    self.connection = connection
  }

  func exchange(_ payload: Payload, window: Int, until deadline: ContinuousClock.Instant)
    async throws -> Exchange
  {
    try await withCheckedThrowingContinuation { continuation in
      commands.yield(
        Command(payload: payload.buffer, window: window, deadline: deadline) {
          continuation.resume(with: $0)
        })
    }
  }

  /// Runs `command` in the handler: the same loop as Convoy's, on `WSClient`'s own types.
  static func exchange(
    _ command: Command, messages: inout WebSocketInboundMessageStream.AsyncIterator,
    outbound: WebSocketOutboundWriter
  ) async throws -> Exchange {
    var exchange = Exchange()
    var outstanding = 0
    for _ in 0..<command.window {
      try await outbound.write(.binary(command.payload))
      outstanding += 1
    }
    while outstanding > 0 {
      guard let message = try await messages.next() else {
        throw EchoBenchmarkError("WSClient: the WebSocket closed")
      }
      outstanding -= 1
      exchange.messages += 1
      var size = -1
      if case .binary(let buffer) = message { size = buffer.readableBytes }
      if size != command.payload.readableBytes { exchange.mismatched += 1 }
      if ContinuousClock.now < command.deadline {
        try await outbound.write(.binary(command.payload))
        outstanding += 1
      }
    }
    return exchange
  }

  func close() async {
    // The handler returns once the stream ends, and the client closes the WebSocket.
    commands.finish()
    await connection.value
  }
}
