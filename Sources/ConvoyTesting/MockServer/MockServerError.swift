import Foundation

/// Why a ``MockServer`` could not do what a test asked.
public enum MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No loopback socket could be opened or bound; `errno` says why.
  case couldNotListen(errno: Int32)
  /// The server was asked to answer before ``MockServer/start()`` finished, or after
  /// ``MockServer/shutdown()``.
  case notRunning
  /// ``MockServer/takeRequest(timeout:)`` or a wait found nothing within its bound.
  case timedOut(waitingFor: String, after: Duration)
  /// A WebSocket script sent on a connection the client had already closed.
  case webSocketClosed

  /// What went wrong, for a test's failure message.
  public var description: String {
    switch self {
    case .couldNotListen(let code):
      "the mock server could not listen on loopback: \(String(cString: strerror(code)))"
    case .notRunning:
      "the mock server is not running: await start() first"
    case .timedOut(let what, let bound):
      "the mock server waited \(bound) for \(what), and it did not happen"
    case .webSocketClosed:
      "the mock server's WebSocket script sent on a connection the client had closed"
    }
  }
}
