import Foundation

/// A WebSocket that opens itself again when its connection drops, for a live channel that must
/// outlast network changes and server restarts: one sequence of messages across connections,
/// and a hook that runs on each connection before its first message (to subscribe again).
///
/// ```swift
/// func follow(_ connection: ServerConnection) async throws {
///   let live = connection.reconnectingWebSocket(WebSocketEndpoint(path: "v2/updates/live")) {
///     socket in try await socket.send(.text("subscribe"))
///   }
///   for try await message in live.messages {
///     print(message)
///   }
/// }
/// ```
///
/// Each reconnection waits as ``WebSocketReconnection`` says and is reported to the connection's
/// observers as `stream.reconnecting`. Messages sent while the WebSocket is reconnecting are not
/// kept: ``send(_:)`` throws then, and the hook sends what a new connection needs.
public final class ReconnectingWebSocket: Sendable {
  private let connection: ServerConnection
  private let endpoint: WebSocketEndpoint
  private let reconnection: WebSocketReconnection
  private let onOpen: @Sendable (WebSocket) async throws -> Void
  private let state = Locked(State())

  private struct State {
    var current: WebSocket?
    var isClosed = false
    /// The wait before the next attempt, which `close()` ends early.
    var waiting: CheckedContinuation<Void, Never>?
  }

  init(
    connection: ServerConnection, endpoint: WebSocketEndpoint,
    reconnection: WebSocketReconnection,
    onOpen: @escaping @Sendable (WebSocket) async throws -> Void
  ) {
    self.connection = connection
    self.endpoint = endpoint
    self.reconnection = reconnection
    self.onOpen = onOpen
  }

  /// The WebSocket open now, `nil` while (re)connecting.
  public var webSocket: WebSocket? { state.withLock { $0.current } }

  /// The messages of every connection in turn; the first connection opens when the first
  /// message is asked for. Ends when the server closes normally or after ``close(code:reason:)``;
  /// throws the failure that ended reconnecting. Read it from one task at a time.
  public var messages: Messages { Messages(owner: self) }

  /// Sends `message` on the WebSocket open now.
  ///
  /// - Throws: ``WebSocketError`` with ``WebSocketError/Kind/closed`` while reconnecting or once
  ///   closed; what ``WebSocket/send(_:)`` throws.
  public func send(_ message: WebSocketMessage) async throws {
    guard let socket = webSocket else {
      throw WebSocketError(kind: .closed, detail: "the WebSocket is reconnecting or closed")
    }
    try await socket.send(message)
  }

  /// Stops reconnecting and closes the WebSocket open now with `code` and `reason`.
  public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
    let (socket, waiting) = state.withLock { state in
      state.isClosed = true
      defer { state.waiting = nil }
      return (state.current, state.waiting)
    }
    waiting?.resume()
    await socket?.close(code: code, reason: reason)
  }

  private var isClosed: Bool { state.withLock { $0.isClosed } }

  /// Opens the next connection and runs the hook on it; `nil` once closed meanwhile.
  private func open() async throws -> WebSocket? {
    let socket = try await connection.webSocket(endpoint)
    let closed = state.withLock { state in
      if !state.isClosed { state.current = socket }
      return state.isClosed
    }
    if closed {
      await socket.close()
      return nil
    }
    try await onOpen(socket)
    return socket
  }

  /// Waits before attempt `attempt` in a row (from 1) and reports it; throws `failure` when the
  /// policy allows no more, or the task was cancelled. While the connection's monitor says
  /// offline the wait is for the network's return, not the back-off: attempts that would fail
  /// the same way are not made, and the first goes as soon as the network is back.
  private func waitToReconnect(attempt: Int, after failure: any Error) async throws {
    state.withLock { $0.current = nil }
    if let limit = reconnection.maximumAttempts, attempt > limit { throw failure }
    let configuration = connection.configuration
    let url = try? configuration.url(path: endpoint.path, queryItems: endpoint.queryItems)
    let offline = url.flatMap { connection.pipeline.offlineMonitor(for: $0) }
    let backedOff = reconnection.initialDelay * pow(2, Double(min(attempt - 1, 10)))
    let delay =
      offline == nil
      ? min(reconnection.maximumDelay, configuration.retryPolicy.jittered(backedOff)) : 0
    let events = EventEmitter.call(observers: connection.observers, jobID: nil, method: .get)
    events.emit(
      .streamReconnecting(
        .init(
          call: events.call, url: url, attempt: attempt, delay: delay,
          reason: offline == nil ? "\(failure)" : "offline, waiting for the network: \(failure)")))
    if let offline {
      try await waitOrClose { end in
        let wait = Task { if await offline.waitUntilOnline() { end() } }
        return { wait.cancel() }
      }
    } else {
      try await waitOrClose { end in
        let timer = configuration.clock.schedule(after: delay, end)
        return { timer.cancel() }
      }
    }
  }

  /// Waits until the wake-up `start` sets up calls its `end`, or less when
  /// ``close(code:reason:)`` comes first; `start` returns what cancels its wake-up.
  ///
  /// - Throws: ``ServerConnectionError/cancelled`` when the task is cancelled.
  private func waitOrClose(
    _ start: (_ end: @escaping @Sendable () -> Void) -> @Sendable () -> Void
  ) async throws {
    let cancelWakeUp = Locked<(@Sendable () -> Void)?>(nil)
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let closed = state.withLock { state in
          if !state.isClosed { state.waiting = continuation }
          return state.isClosed
        }
        guard !closed else { return continuation.resume() }
        let cancel = start { [weak self] in self?.endWait() }
        cancelWakeUp.withLock { $0 = cancel }
      }
    } onCancel: {
      self.endWait()
    }
    cancelWakeUp.withLock { $0 }?()
    if Task.isCancelled { throw ServerConnectionError.cancelled }
  }

  /// Ends the wait before the next attempt, if one runs.
  private func endWait() {
    state.withLock { state in
      defer { state.waiting = nil }
      return state.waiting
    }?.resume()
  }

  /// The messages of a ``ReconnectingWebSocket``.
  public struct Messages: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = WebSocketMessage
    let owner: ReconnectingWebSocket

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator {
      Iterator(owner: owner)
    }

    /// Reads the messages of a ``ReconnectingWebSocket``, reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol {
      let owner: ReconnectingWebSocket
      private var messages: WebSocket.Messages.Iterator?
      /// Attempts since the last message: what backs off and what the limit counts.
      private var attemptsInARow = 0

      init(owner: ReconnectingWebSocket) {
        self.owner = owner
      }

      /// The next message from whichever connection is open, `nil` once the server closed
      /// normally or the WebSocket was closed.
      public mutating func next() async throws -> WebSocketMessage? {
        while true {
          if messages == nil {
            guard !owner.isClosed else { return nil }
            do {
              guard let socket = try await owner.open() else { return nil }
              messages = socket.messages.makeAsyncIterator()
            } catch {
              try await reconnect(after: error)
              continue
            }
          }
          do {
            if let message = try await messages?.next() {
              attemptsInARow = 0
              return message
            }
            // The server closed: for good unless it is going away.
            messages = nil
            guard !owner.isClosed, owner.webSocket?.closeCode == .goingAway else { return nil }
            try await reconnect(
              after: WebSocketError(
                kind: .closedByServer, closeCode: .goingAway, detail: "the server went away"))
          } catch {
            messages = nil
            if owner.isClosed { return nil }
            try await reconnect(after: error)
          }
        }
      }

      private mutating func reconnect(after error: any Error) async throws {
        let goingAway = (error as? WebSocketError)?.closeCode == .goingAway
        guard goingAway || WebSocketReconnection.isWorthReconnecting(after: error) else {
          throw error
        }
        attemptsInARow += 1
        try await owner.waitToReconnect(attempt: attemptsInARow, after: error)
      }
    }
  }
}

extension ServerConnection {
  /// A WebSocket to `endpoint` that opens itself again when its connection drops, as
  /// `reconnection` says; `onOpen` runs on each connection before its first message is read.
  ///
  /// Nothing connects until the first message is asked for.
  public func reconnectingWebSocket(
    _ endpoint: WebSocketEndpoint, reconnection: WebSocketReconnection = WebSocketReconnection(),
    onOpen: @escaping @Sendable (WebSocket) async throws -> Void = { _ in }
  ) -> ReconnectingWebSocket {
    ReconnectingWebSocket(
      connection: self, endpoint: endpoint, reconnection: reconnection, onOpen: onOpen)
  }
}
