import Convoy
import ConvoyTesting
import Foundation
import Testing

#if os(Linux)
  /// `WebSocket.executor`: a reader that prefers it runs on the thread that reads the socket.
  @Suite(.timeLimit(.minutes(1))) struct WebSocketExecutorTests {
    @Test func aReaderPreferringTheExecutorHandlesEveryMessageOnTheReadingThread() async throws {
      let test = try await WebSocketCase.start()
      test.server.route("/case", answer: .webSocketEcho())
      let socket = try await test.open()
      let executor = try #require(socket.executor)
      let threads = try await withTaskExecutorPreference(executor) {
        var threads: Set<String> = []
        var messages = socket.messages.makeAsyncIterator()
        for number in 0..<50 {
          try await socket.send(.text("\(number)"))
          let echo = try await messages.next()
          #expect(echo == .text("\(number)"))
          threads.insert(currentThreadName())
        }
        // Closing from the loop's thread waits for the server's answer without blocking it.
        await socket.close()
        threads.insert(currentThreadName())
        return threads
      }
      #expect(threads == ["Convoy sockets"])
      #expect(socket.closeCode == .normalClosure)
      await test.server.shutdown()
    }

    @Test func aSocketOpenedFromTheReadingThreadWorksLikeAnyOther() async throws {
      let test = try await WebSocketCase.start()
      test.server.route("/case", answer: .webSocketEcho())
      let first = try await test.open()
      let executor = try #require(first.executor)
      // Opening connects on another thread and reads the upgrade's answer through the loop:
      // neither may wait for the loop's own thread while it runs the opener.
      let echo = try await withTaskExecutorPreference(executor) {
        let second = try await test.open()
        try await second.send(.binary(Data([1, 2, 3])))
        var messages = second.messages.makeAsyncIterator()
        let echo = try await messages.next()
        await second.close()
        return echo
      }
      #expect(echo == .binary(Data([1, 2, 3])))
      await first.close()
      await test.server.shutdown()
    }

    /// The name of the thread running the caller, read synchronously (`Thread.current` is not
    /// for async code).
    private func currentThreadName() -> String {
      return Thread.current.name ?? ""
    }
  }
#endif
