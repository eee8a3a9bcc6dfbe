/// Why a server's answer to the opening handshake does not open a WebSocket (RFC 6455 §4.1).
///
/// §4.1 lists what a client checks in the answer and says that when any check fails the client
/// fails the connection; each case keeps what arrived, so the error says what the server sent
/// instead (a status, a header's value) rather than only that the handshake failed.
package enum WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The status was not 101 Switching Protocols: the server (or a proxy) answered as for a plain
  /// request, often with 200, 401, 403 or 404.
  case notSwitchingProtocols(status: Int)
  /// `Upgrade` was missing or named something other than `websocket`.
  case upgradeNotWebSocket(String?)
  /// `Connection` was missing or held no `upgrade` token.
  case connectionNotUpgrade(String?)
  /// `Sec-WebSocket-Accept` was missing.
  case acceptMissing
  /// `Sec-WebSocket-Accept` did not prove that the server read this handshake's key (§4.2.2).
  case acceptMismatch(expected: String, received: String)
  /// The server chose a subprotocol the client did not offer.
  case subprotocolNotOffered(String)
  /// The server named more than one subprotocol; it may choose one at most (§4.2.2).
  case severalSubprotocols([String])
  /// The server answered with extensions although the client offered none (§9.1).
  case extensionsNotOffered([String])
  /// A subprotocol to offer is not an HTTP token (§4.1), or was offered twice.
  case invalidSubprotocolOffer(String)
  /// The extension offer holds a line break or NUL, which would end or split the header field.
  case invalidExtensionOffer(String)

  /// A sentence for logs and for the message the error layer words.
  package var description: String {
    switch self {
    case .notSwitchingProtocols(let status):
      "the server answered the WebSocket handshake with status \(status), not 101"
    case .upgradeNotWebSocket(let value):
      value.map { "the server's Upgrade header was \"\($0)\", not websocket" }
        ?? "the server's handshake answer had no Upgrade header"
    case .connectionNotUpgrade(let value):
      value.map { "the server's Connection header was \"\($0)\", without the upgrade token" }
        ?? "the server's handshake answer had no Connection header"
    case .acceptMissing:
      "the server's handshake answer had no Sec-WebSocket-Accept header"
    case .acceptMismatch(let expected, let received):
      "the server's Sec-WebSocket-Accept was \"\(received)\", not the \"\(expected)\" this key needs"
    case .subprotocolNotOffered(let name):
      "the server chose the subprotocol \"\(name)\", which was not offered"
    case .severalSubprotocols(let names):
      "the server chose several subprotocols (\(names.joined(separator: ", "))), not one"
    case .extensionsNotOffered(let extensions):
      "the server accepted extensions that were not offered: \(extensions.joined(separator: ", "))"
    case .invalidSubprotocolOffer(let name):
      "the subprotocol \"\(name)\" cannot be offered: it is not a token, or is offered twice"
    case .invalidExtensionOffer:
      "the extension offer holds a line break or NUL"
    }
  }
}
