import Foundation

/// When and how often a ``ReconnectingWebSocket`` opens its WebSocket again.
///
/// It reconnects when the connection drops (no close handshake, a missed pong, the idle
/// timeout), when the server goes away or restarts (1001, 1011-1014), and when opening fails for
/// want of a connection (refused, unreachable, timed out, offline, a `502`/`503`/`504`). It stops
/// for good on a normal close from the server (1000, or an app's 3000-4999 code), on a refusal
/// (another `4xx`, a broken handshake, a protocol violation) and on cancellation.
public struct WebSocketReconnection: Sendable, Hashable {
  /// The wait before the first reconnection after a message came; doubled for each failure in a
  /// row, jittered with the connection's retry policy, and capped at ``maximumDelay``.
  public var initialDelay: TimeInterval
  /// The longest wait between two attempts.
  public var maximumDelay: TimeInterval
  /// How many attempts in a row (without a message between them) before giving up with the last
  /// failure; `nil` for no limit.
  public var maximumAttempts: Int?

  /// Creates a policy: 1 s, doubling to at most 30 s, for ever.
  public init(
    initialDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30, maximumAttempts: Int? = nil
  ) {
    self.initialDelay = max(0, initialDelay)
    self.maximumDelay = max(0, maximumDelay)
    self.maximumAttempts = maximumAttempts.map { max(0, $0) }
  }

  /// Whether `error`, which ended a WebSocket or its opening, is worth another attempt.
  static func isWorthReconnecting(after error: any Error) -> Bool {
    switch error {
    case let error as WebSocketError:
      switch error.kind {
      case .closedAbnormally, .timedOut: return true
      case .closedByServer: return (1011...1014).contains(error.closeCode?.rawValue ?? 0)
      case .handshakeFailed, .protocolViolation, .closed: return false
      }
    case let error as ServerConnectionError:
      switch error {
      case .timedOut: return true
      case .httpError(let status, _): return [502, 503, 504].contains(status)
      case .transportFailed(let failure, _):
        return [
          .networkConnectionLost, .timedOut, .cannotConnectToHost, .notConnectedToInternet,
          .cannotFindHost,
        ].contains(failure.kind)
      default: return false
      }
    default:
      return false
    }
  }
}
