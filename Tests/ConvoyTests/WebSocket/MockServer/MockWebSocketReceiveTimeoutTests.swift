import Convoy
import ConvoyTesting
import Foundation
import Testing

#if os(Linux)
  /// `MockWebSocket.receive(timeout:)`: a script that pushes messages of its own between the
  /// client's, as the simulator's live channel does.
  @Suite(.timeLimit(.minutes(1))) struct MockWebSocketReceiveTimeoutTests {
    @Test func itTimesOutWhileTheClientIsQuietThenReceivesThenSeesTheClose() async throws {
      let test = try await WebSocketCase.start()
      let receipts = Locked<[MockWebSocketReceipt]>([])
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          let quiet = await socket.receive(timeout: .milliseconds(50))
          receipts.withLock { $0.append(quiet) }
          try await socket.send(.text("your turn"))
          let spoken = await socket.receive(timeout: .seconds(30))
          receipts.withLock { $0.append(spoken) }
          try await socket.send(.text("got it"))
          let closed = await socket.receive(timeout: .seconds(30))
          receipts.withLock { $0.append(closed) }
        })
      let socket = try await test.open()
      var messages = socket.messages.makeAsyncIterator()
      #expect(try await messages.next() == .text("your turn"))
      try await socket.send(.text("hello"))
      #expect(try await messages.next() == .text("got it"))
      await socket.close()
      #expect(await eventually { receipts.current.count == 3 })
      #expect(receipts.current == [.timedOut, .message(.text("hello")), .closed])
      await test.server.shutdown()
    }
  }
#endif
