import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import WebSocketKit

/// websocket-kit's WebSockets, as its README opens them: `WebSocket.connect(to:on:)` on an event
/// loop group, here NIO's singleton (one loop per core), frames up to 16 MiB (its default is 16
/// KiB, below the 64 KB cells). It cannot offer permessage-deflate.
struct WebSocketKitConnector: EchoConnector {
  let port: Int

  func connect(compression: Bool) async throws -> any EchoClient {
    guard !compression else { throw EchoBenchmarkError("websocket-kit has no permessage-deflate") }
    let group = MultiThreadedEventLoopGroup.singleton
    let upgraded = group.any().makePromise(of: WebSocketKitEchoClient.self)
    WebSocket.connect(
      to: "ws://127.0.0.1:\(port)/echo",
      configuration: WebSocketClient.Configuration(maxFrameSize: 1 << 24), on: group
    ) { socket in
      // The callbacks are set before the upgrade handler returns, as websocket-kit asks.
      upgraded.succeed(WebSocketKitEchoClient(socket: socket))
    }.cascadeFailure(to: upgraded)
    return try await upgraded.futureResult.get()
  }
}

/// Echoes are counted in the `onBinary` callback, on the socket's event loop, which sends the
/// next message from there: websocket-kit's own way, with no task in the loop.
final class WebSocketKitEchoClient: EchoClient {
  private let socket: WebSocket
  private let run = NIOLockedValueBox<Run?>(nil)

  /// The exchange under way.
  private struct Run {
    let payload: ByteBuffer
    let deadline: ContinuousClock.Instant
    var outstanding: Int
    var exchange = Exchange()
    let finished: CheckedContinuation<Exchange, Never>
  }

  init(socket: WebSocket) {
    self.socket = socket
    socket.onBinary { [weak self] _, buffer in self?.received(buffer) }
  }

  func exchange(_ payload: Payload, window: Int, until deadline: ContinuousClock.Instant)
    async throws -> Exchange
  {
    await withCheckedContinuation { finished in
      run.withLockedValue {
        $0 = Run(
          payload: payload.buffer, deadline: deadline, outstanding: window, finished: finished)
      }
      for _ in 0..<window { socket.send(payload.buffer) }
    }
  }

  private func received(_ buffer: ByteBuffer) {
    let (next, done) = run.withLockedValue {
      state -> (ByteBuffer?, (CheckedContinuation<Exchange, Never>, Exchange)?) in
      guard var current = state else { return (nil, nil) }
      current.outstanding -= 1
      current.exchange.messages += 1
      if buffer.readableBytes != current.payload.readableBytes { current.exchange.mismatched += 1 }
      var next: ByteBuffer?
      if ContinuousClock.now < current.deadline {
        current.outstanding += 1
        next = current.payload
      }
      if current.outstanding == 0 {
        state = nil
        return (nil, (current.finished, current.exchange))
      }
      state = current
      return (next, nil)
    }
    if let next { socket.send(next) }
    if let (finished, exchange) = done { finished.resume(returning: exchange) }
  }

  func close() async {
    try? await socket.close(code: .normalClosure)
  }
}
