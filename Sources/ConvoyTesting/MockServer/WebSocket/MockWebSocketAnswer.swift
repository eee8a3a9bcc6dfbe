import Convoy
import Foundation

/// How a ``MockServer`` answers a WebSocket upgrade: the `101` (with a subprotocol and
/// compression when asked), then a script that plays the server's side.
///
/// Made with ``MockAnswer/webSocket(subprotocol:compression:headers:_:)`` and its siblings.
public struct MockWebSocketAnswer: Sendable {
  /// The subprotocol the `101` names, if any (whatever the client offered: a test of the
  /// client's check may name one it did not).
  public var subprotocol: String?
  /// The compression agreed when the client offers permessage-deflate; `nil` agrees to none.
  public var compression: MockWebSocketCompression?
  /// Plays the server's side once the `101` is sent; the connection closes when it returns.
  public var script: @Sendable (MockWebSocket) async throws -> Void
}

/// The permessage-deflate parameters a ``MockServer`` answers with (RFC 7692 §7.1).
public struct MockWebSocketCompression: Sendable, Hashable {
  /// The server resets its compression context after each message.
  public var serverNoContextTakeover: Bool
  /// The client must reset its compression context after each message.
  public var clientNoContextTakeover: Bool
  /// The server's window, 8 to 15 bits; `nil` leaves it at 15 and unnamed.
  public var serverMaxWindowBits: Int?
  /// The client's window, 8 to 15 bits; `nil` leaves it unnamed.
  public var clientMaxWindowBits: Int?

  /// Compression with context kept both ways and full windows unless limited.
  public init(
    serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
    serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
  ) {
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientMaxWindowBits = clientMaxWindowBits
  }

  /// The `Sec-WebSocket-Extensions` value of the answer.
  var headerValue: String {
    var parts = ["permessage-deflate"]
    if serverNoContextTakeover { parts.append("server_no_context_takeover") }
    if clientNoContextTakeover { parts.append("client_no_context_takeover") }
    if let bits = serverMaxWindowBits { parts.append("server_max_window_bits=\(bits)") }
    if let bits = clientMaxWindowBits { parts.append("client_max_window_bits=\(bits)") }
    return parts.joined(separator: "; ")
  }

  /// What both sides agreed, as Convoy's client reads it.
  var parameters: PerMessageDeflateParameters {
    PerMessageDeflateParameters(
      clientNoContextTakeover: clientNoContextTakeover,
      serverNoContextTakeover: serverNoContextTakeover,
      clientMaxWindowBits: clientMaxWindowBits ?? 15, serverMaxWindowBits: serverMaxWindowBits ?? 15
    )
  }
}

extension MockAnswer {
  /// Accepts a WebSocket upgrade and runs `script` as the server's side.
  ///
  /// - Parameters:
  ///   - subprotocol: The subprotocol the `101` names.
  ///   - compression: What the server agrees to when the client offers permessage-deflate.
  ///   - headers: More header fields for the `101`, such as `Set-Cookie`.
  ///   - script: The server's side; the connection closes when it returns or throws.
  public static func webSocket(
    subprotocol: String? = nil, compression: MockWebSocketCompression? = nil,
    headers: HTTPHeaders = [:], _ script: @escaping @Sendable (MockWebSocket) async throws -> Void
  ) -> MockAnswer {
    var answer = MockAnswer(status: 101, headers: headers)
    answer.webSocket = MockWebSocketAnswer(
      subprotocol: subprotocol, compression: compression, script: script)
    return answer
  }

  /// A WebSocket that sends every message back until the client closes.
  public static func webSocketEcho(compression: MockWebSocketCompression? = nil) -> MockAnswer {
    webSocket(compression: compression) { socket in
      while let message = await socket.receive() { try await socket.send(message) }
    }
  }

  /// A WebSocket that sends `messages`, then closes with `code` when one is given, or else
  /// records what the client sends until it closes.
  public static func webSocket(
    sending messages: [WebSocketMessage], thenClosingWith code: WebSocketCloseCode? = nil
  ) -> MockAnswer {
    webSocket { socket in
      for message in messages { try await socket.send(message) }
      if let code {
        try await socket.close(code: code)
      } else {
        while await socket.receive() != nil {}
      }
    }
  }
}
