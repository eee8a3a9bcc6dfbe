import Foundation

/// Why a WebSocket failed or could not be used: the server broke the protocol, the handshake
/// was not one RFC 6455 allows, the connection ended without a close, the server went silent,
/// the server closed reporting a failure, or the WebSocket is already closed.
public struct WebSocketError: Error, Sendable, Hashable, CategorizedError, CustomStringConvertible {
  /// The kinds of WebSocket failure.
  public enum Kind: Sendable, Hashable {
    /// The server's answer to the upgrade was not a valid WebSocket handshake.
    case handshakeFailed
    /// The server broke RFC 6455 or RFC 7692; the client closed with ``closeCode``.
    case protocolViolation
    /// The connection ended without a close handshake (1006).
    case closedAbnormally
    /// The server went silent: a ping went unanswered for ``WebSocketOptions/pongTimeout``, or
    /// nothing came for ``WebSocketOptions/idleTimeout``. The client closed with 1001.
    case timedOut
    /// The server closed with a code that reports a failure (1002–1015: a protocol error on
    /// the client's side, a policy violation, a message too big, an error of its own, a
    /// restart); the messages received before it were delivered.
    case closedByServer
    /// The WebSocket is closed: nothing more can be sent.
    case closed
  }

  /// What went wrong.
  public var kind: Kind
  /// The close code the client sent or reported, when there was one.
  public var closeCode: WebSocketCloseCode?
  /// What happened, in words, for logs.
  public var detail: String

  /// Creates an error.
  public init(kind: Kind, closeCode: WebSocketCloseCode? = nil, detail: String) {
    self.kind = kind
    self.closeCode = closeCode
    self.detail = detail
  }

  /// How the failure is worded for people.
  public var category: ErrorCategory {
    switch kind {
    case .handshakeFailed: .malformedResponse
    case .protocolViolation: closeCode == .messageTooBig ? .responseTooLarge : .malformedResponse
    case .closedAbnormally: .serverUnreachable
    case .timedOut: .timedOut
    case .closedByServer: Self.category(ofServerClose: closeCode)
    case .closed: .invalidRequest
    }
  }

  /// What a close code the server sent says about whose fault it was.
  private static func category(ofServerClose code: WebSocketCloseCode?) -> ErrorCategory {
    switch code?.rawValue {
    case 1008: .forbidden
    case 1011, 1012, 1013, 1014: .serverFailure
    default: .invalidRequest
    }
  }

  /// The kind, the code and the detail.
  public var description: String {
    let code = closeCode.map { " (close code \($0.rawValue))" } ?? ""
    return "WebSocket \(kind)\(code): \(detail)"
  }
}
