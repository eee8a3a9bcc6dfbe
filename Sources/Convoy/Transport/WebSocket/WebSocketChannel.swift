import Foundation

/// The bytes of one connection both ways, once a transport has connected it (TLS and proxy
/// included) for a WebSocket: the upgrade request, then frames.
///
/// One reader and one writer at a time; `read` and `write` may run at once.
package protocol WebSocketChannel: AnyObject, Sendable {
  /// Sends all of `bytes`, suspending while the socket cannot take more.
  func write(_ bytes: Data) async throws(TransportFailure)

  /// The next bytes that arrived, `nil` once the server closed the connection.
  func read() async throws(TransportFailure) -> Data?

  /// Closes the connection; a waiting `read` or `write` fails with
  /// ``TransportFailure/Kind/cancelled``. Harmless when called again.
  func close()
}

/// A transport that can connect a ``WebSocketChannel``.
package protocol WebSocketChannelOpening: Sendable {
  /// Connects to `url`'s host and port (`https` with TLS), forcing HTTP/1.1, within `timeout`.
  func openWebSocketChannel(to url: URL, timeout: TimeInterval) async throws(TransportFailure)
    -> any WebSocketChannel
}
