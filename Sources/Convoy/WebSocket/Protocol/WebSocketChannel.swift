import Foundation

/// The bytes of one connection both ways, once a transport has connected it (TLS and proxy
/// included) for a WebSocket: the upgrade request and its answer with `write` and `read`, then
/// frames pushed to a handler as they arrive and written with `send` without waiting.
///
/// After the upgrade a message costs no hop between threads that the network does not: bytes
/// go to the handler on the thread that saw them arrive, and `send` writes on the caller's
/// thread what the socket takes at once.
package protocol WebSocketChannel: AnyObject, Sendable {
  /// Sends all of `bytes`, suspending while the socket cannot take more. For the upgrade.
  func write(_ bytes: Data) async throws(TransportFailure)

  /// The next bytes that arrived, `nil` once the server closed the connection. For the
  /// upgrade's answer; not once receiving started.
  func read() async throws(TransportFailure) -> Data?

  /// From now on hands every arrival to `handler`, one call at a time, and tells it when the
  /// socket takes writes again after a `send` that could not write everything.
  func startReceiving(_ handler: @escaping @Sendable (WebSocketChannelEvent) -> Void)

  /// Stops handing over arrivals (the socket's bytes stay in the kernel, so TCP slows the
  /// server down), or starts again.
  func setReceivingPaused(_ paused: Bool)

  /// Writes what the socket takes of `bytes` now, without waiting, and returns how many bytes
  /// that was; when fewer than all, the handler gets ``WebSocketChannelEvent/writable`` once the
  /// socket takes more. One caller at a time.
  func send(_ bytes: Data) throws(TransportFailure) -> Int

  /// Closes the connection; a waiting `read` or `write` fails with
  /// ``TransportFailure/Kind/cancelled`` and no event follows. Harmless when called again.
  func close()

  /// The executor of the thread that hands over arrivals, when tasks may run on it: a reader
  /// that prefers it is resumed there without a thread switch.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  var taskExecutor: (any TaskExecutor)? { get }
}

extension WebSocketChannel {
  /// No executor: readers run where Swift's concurrency puts them.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  package var taskExecutor: (any TaskExecutor)? { nil }
}

/// What a ``WebSocketChannel`` hands its handler.
package enum WebSocketChannelEvent: Sendable {
  /// Bytes arrived.
  case received(Data)
  /// The server closed the connection.
  case ended
  /// The connection failed.
  case failed(TransportFailure)
  /// The socket takes writes again.
  case writable
}

/// A transport that can connect a ``WebSocketChannel``.
package protocol WebSocketChannelOpening: Sendable {
  /// Connects to `url`'s host and port (`https` with TLS), forcing HTTP/1.1, within `timeout`.
  func openWebSocketChannel(to url: URL, timeout: TimeInterval) async throws(TransportFailure)
    -> any WebSocketChannel
}
