import Foundation

/// An open WebSocket on a ``ServerConnection``: messages in as an `AsyncSequence`, ``send(_:)``
/// out, and the close handshake.
///
/// ```swift
/// func follow(_ connection: ServerConnection) async throws {
///   let socket = try await connection.webSocket(WebSocketEndpoint(path: "v2/updates/live"))
///   try await socket.send(.text("subscribe"))
///   for try await message in socket.messages {
///     print(message)
///   }
///   print("closed with", socket.closeCode?.rawValue ?? 0)
/// }
/// ```
///
/// Messages wait for their reader up to ``WebSocketOptions/bufferedMessages``; past that the
/// WebSocket stops reading from the network, so a slow reader slows the server down instead of
/// memory growing. Pings are answered with pongs. Leaving the `for` loop by cancelling its task
/// closes the WebSocket with 1001; letting the last reference go does too.
public final class WebSocket: Sendable {
  /// The subprotocol the server chose among those offered, if any.
  public let subprotocol: String?
  /// Whether messages are compressed (permessage-deflate was agreed).
  public let isCompressed: Bool
  let session: WebSocketSession
  /// The connection's decoder, for ``messages(as:)``.
  private let decoder: JSONDecoder

  init(
    subprotocol: String?, isCompressed: Bool, session: WebSocketSession, decoder: JSONDecoder
  ) {
    self.subprotocol = subprotocol
    self.isCompressed = isCompressed
    self.session = session
    self.decoder = decoder
  }

  deinit {
    session.abandon()
  }

  /// The messages from the server in order; the sequence ends when the WebSocket closes
  /// normally, and throws ``WebSocketError`` when it fails. Read it from one task at a time.
  public var messages: Messages { Messages(socket: self) }

  /// The messages decoded as `type` from JSON with the connection's decoder; a message that does
  /// not decode ends the sequence with its `DecodingError`.
  public func messages<Value: Decodable & Sendable>(as type: Value.Type)
    -> AsyncThrowingMapSequence<Messages, Value>
  {
    let decoder = self.decoder
    return messages.map { try decoder.decode(Value.self, from: $0.bytes) }
  }

  /// Sends `value` as a JSON text message, encoded with `encoder`.
  public func send(json value: some Encodable, encoder: JSONEncoder = JSONEncoder()) async throws {
    try await send(.json(value, encoder: encoder))
  }

  /// Queues `message` to be sent and returns; while ``WebSocketOptions/maximumQueuedBytes`` are
  /// already waiting to be written (the server reads slowly), it first waits for room.
  ///
  /// Messages go out in the order their `send` calls returned, before a later
  /// ``close(code:reason:)``.
  ///
  /// - Throws: ``WebSocketError``: ``WebSocketError/Kind/closed`` after ``close(code:reason:)``
  ///   or once the server closed; once the WebSocket failed, the failure (such as
  ///   ``WebSocketError/Kind/closedAbnormally`` when the connection broke).
  public func send(_ message: WebSocketMessage) async throws {
    try await session.send(message)
  }

  /// Starts the close handshake with `code` and `reason` after the messages already queued, and
  /// returns once the server answered (or ``WebSocketOptions/closeTimeout`` passed) and the
  /// connection is closed.
  public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
    await session.close(code: code, reason: reason)
  }

  /// What went through the WebSocket so far: messages and bytes each way, before and after
  /// compression.
  public var metrics: WebSocketMetrics { session.metrics }

  /// The executor of the thread that reads this WebSocket from the network, when the transport
  /// lets tasks run on it (``CurlTransport`` does; `nil` elsewhere).
  ///
  /// A task that prefers it handles each message on the thread that read it, and what it sends
  /// in answer is written from there too: no thread is woken per message, which roughly halves
  /// the time of a request-and-answer exchange of small messages.
  ///
  /// ```swift
  /// func answerPings(on socket: WebSocket) async throws {
  ///   try await withTaskExecutorPreference(socket.executor) {
  ///     for try await message in socket.messages {
  ///       if case .text("ping") = message { try await socket.send(.text("pong")) }
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// The task moves to that thread when it first suspends (waiting for a message does).
  ///
  /// The thread serves every WebSocket of the process: code running there must not block (no
  /// synchronous file or network access, no waiting on a lock held for long). Hand slow work to
  /// another task.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public var executor: (any TaskExecutor)? { session.channel.taskExecutor }

  /// The code of the server's close frame once it came; 1005 when it had none.
  public var closeCode: WebSocketCloseCode? { session.closeFromServer?.code }

  /// The reason in the server's close frame, once it came.
  public var closeReason: String? { session.closeFromServer?.reason }

  /// The messages of a ``WebSocket``.
  public struct Messages: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = WebSocketMessage
    let socket: WebSocket

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator {
      Iterator(socket: socket)
    }

    /// Reads the messages of a ``WebSocket``.
    public struct Iterator: AsyncIteratorProtocol {
      let socket: WebSocket

      /// The next message, `nil` once the WebSocket closed normally.
      ///
      /// - Throws: ``WebSocketError``; ``ServerConnectionError/cancelled`` once the task was
      ///   cancelled, which closes the WebSocket with 1001.
      public mutating func next() async throws -> WebSocketMessage? {
        let session = socket.session
        return try await withTaskCancellationHandler {
          try await session.inbox.next()
        } onCancel: {
          session.inbox.finish(.failure(ServerConnectionError.cancelled))
          Task { await session.close(code: .goingAway, reason: "") }
        }
      }
    }
  }
}
