import Convoy
import ConvoyTesting
import Foundation
import Testing

#if os(Linux)
  /// A mock server and a connection to it over libcurl, for the WebSocket conformance suites.
  struct WebSocketCase {
    let server: MockServer
    let connection: ServerConnection

    static func start() async throws -> WebSocketCase {
      let server = try await MockServer.started()
      let connection = ServerConnection(
        configuration: ServerConfiguration(environment: .local, baseURL: server.baseURL),
        transport: try CurlTransport())
      return WebSocketCase(server: server, connection: connection)
    }

    /// Opens a WebSocket on `path` with `options` (no keep-alive pings: the scripts would see
    /// them).
    func open(
      _ path: String = "case",
      options: WebSocketOptions = WebSocketOptions(compression: false, pingInterval: nil)
    ) async throws -> WebSocket {
      try await connection.webSocket(WebSocketEndpoint(path: path, options: options))
    }

    /// Runs `script` as the server's side of a WebSocket the client opens, then expects the
    /// client to fail with `kind` after `closing` with that close code, and the server to receive
    /// that code. The messages the client received before are returned.
    @discardableResult
    func expectFailure(
      _ kind: WebSocketError.Kind, closing code: WebSocketCloseCode?,
      options: WebSocketOptions = WebSocketOptions(compression: false, pingInterval: nil),
      compression: MockWebSocketCompression? = nil,
      sourceLocation: SourceLocation = #_sourceLocation,
      script: @escaping @Sendable (MockWebSocket) async throws -> Void
    ) async throws -> [WebSocketMessage] {
      server.route(
        "/case",
        answer: .webSocket(compression: compression) { socket in
          try await script(socket)
          while await socket.receive() != nil {}
        })
      let socket = try await open(options: options)
      var received: [WebSocketMessage] = []
      let error = await #expect(throws: WebSocketError.self, sourceLocation: sourceLocation) {
        for try await message in socket.messages { received.append(message) }
      }
      #expect(error?.kind == kind, sourceLocation: sourceLocation)
      #expect(error?.closeCode == code, sourceLocation: sourceLocation)
      if let code, code.isAllowedOnTheWire {
        #expect(try await server.webSocketCloseCode() == code, sourceLocation: sourceLocation)
      }
      return received
    }

    /// Sends `message` from the server and expects the client, which echoes what it receives,
    /// to send it back unchanged.
    func expectEcho(
      of messages: [WebSocketMessage],
      options: WebSocketOptions = WebSocketOptions(compression: false, pingInterval: nil),
      compression: MockWebSocketCompression? = nil,
      sourceLocation: SourceLocation = #_sourceLocation,
      send: @escaping @Sendable (MockWebSocket, WebSocketMessage) async throws -> Void = {
        try await $0.send($1)
      }
    ) async throws {
      server.route(
        "/case",
        answer: .webSocket(compression: compression) { socket in
          for message in messages {
            try await send(socket, message)
            _ = await socket.receive()
          }
          try await socket.close()
        })
      let socket = try await open(options: options)
      if compression != nil {
        #expect(socket.isCompressed, sourceLocation: sourceLocation)
      }
      for try await message in socket.messages { try await socket.send(message) }
      #expect(socket.closeCode == .normalClosure, sourceLocation: sourceLocation)
      #expect(server.webSocketMessages == messages, sourceLocation: sourceLocation)
    }
  }

  extension Data {
    /// `count` bytes of a repeating pattern, so an echo that drops or moves a byte shows.
    static func pattern(_ count: Int) -> Data {
      Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }
  }
#endif
