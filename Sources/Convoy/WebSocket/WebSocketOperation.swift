import Foundation

/// A WebSocket as an operation, made by ``ServerConnection/webSocketOperation(for:consume:)``:
/// opens it, hands it to `consume`, closes it, and produces what `consume` returned.
final class WebSocketOperation<Output: Sendable>: NetworkOperation<Output>,
  @unchecked Sendable
{
  /// The endpoint opened.
  public let endpoint: WebSocketEndpoint
  private let connection: ServerConnection
  private let consume: @Sendable (WebSocket) async throws -> Output

  /// Creates an operation that opens `endpoint` on `connection` once it starts.
  public init(
    _ endpoint: WebSocketEndpoint, connection: ServerConnection,
    consume: @escaping @Sendable (WebSocket) async throws -> Output
  ) {
    self.endpoint = endpoint
    self.connection = connection
    self.consume = consume
    super.init(pipeline: connection.pipeline)
  }

  nonisolated(nonsending) override func perform(
    with pipeline: CallPipeline
  ) async -> Result<Output, any Error> {
    do {
      let socket = try await connection.webSocket(endpoint)
      do {
        let output = try await consume(socket)
        await socket.close()
        return .success(output)
      } catch {
        await socket.close(code: .goingAway)
        throw error
      }
    } catch is CancellationError {
      return .failure(ServerConnectionError.cancelled)
    } catch {
      return .failure(Task.isCancelled ? ServerConnectionError.cancelled : error)
    }
  }
}

extension ServerConnection {
  /// An operation that opens a WebSocket to `endpoint` and produces what `consume` makes of it,
  /// so a live channel can be a step of a chain or a member of a group.
  ///
  /// The operation holds a network slot for as long as the WebSocket is open. When `consume`
  /// returns, the WebSocket is closed with 1000; when it throws, or the operation (or its job's
  /// token) is cancelled, with 1001.
  ///
  /// ```swift
  /// func firstUpdate(on connection: ServerConnection) -> NetworkOperation<String> {
  ///   connection.webSocketOperation(for: WebSocketEndpoint(path: "v2/updates/live")) { socket in
  ///     try await socket.send(.text("subscribe"))
  ///     for try await case .text(let update) in socket.messages { return update }
  ///     return ""
  ///   }
  /// }
  /// ```
  public func webSocketOperation<Output: Sendable>(
    for endpoint: WebSocketEndpoint,
    consume: @escaping @Sendable (WebSocket) async throws -> Output
  ) -> NetworkOperation<Output> {
    WebSocketOperation(endpoint, connection: self, consume: consume)
  }
}
