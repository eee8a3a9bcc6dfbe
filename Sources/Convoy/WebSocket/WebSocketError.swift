import Foundation

/// Why a WebSocket failed or could not be used: the server broke the protocol, the handshake
/// was not one RFC 6455 allows, the connection ended without a close, or the WebSocket is
/// already closed.
public struct WebSocketError: Error, Sendable, Hashable, CategorizedError, CustomStringConvertible {
  /// The kinds of WebSocket failure.
  public enum Kind: Sendable, Hashable {
    /// The server's answer to the upgrade was not a valid WebSocket handshake.
    case handshakeFailed
    /// The server broke RFC 6455 or RFC 7692; the client closed with ``closeCode``.
    case protocolViolation
    /// The connection ended without a close handshake (1006).
    case closedAbnormally
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
    case .handshakeFailed, .protocolViolation: .malformedResponse
    case .closedAbnormally: .serverUnreachable
    case .closed: .invalidRequest
    }
  }

  /// The kind, the code and the detail.
  public var description: String {
    let code = closeCode.map { " (close code \($0.rawValue))" } ?? ""
    return "WebSocket \(kind)\(code): \(detail)"
  }
}
