import Foundation
import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct WebSocketInboxTests {
  @Test func aFullInboxCallsForRoomOnceTheReaderTakesAMessage() async throws {
    let rooms = Locked(0)
    let inbox = WebSocketInbox(capacity: 2) { rooms.withLock { $0 += 1 } }
    inbox.put(.text("0"))
    #expect(!inbox.isFull)
    inbox.put(.text("1"))
    #expect(inbox.isFull)
    #expect(try await inbox.next() == .text("0"))
    #expect(rooms.current == 1)
    #expect(try await inbox.next() == .text("1"))
    // Room is called for once per time the inbox was found full.
    #expect(rooms.current == 1)
  }

  @Test func aWaitingReaderGetsTheMessageAtOnce() async throws {
    let inbox = WebSocketInbox(capacity: 1) {}
    let reader = Task { try await inbox.next() }
    #expect(await eventually { inbox.hasWaitingReader })
    inbox.put(.text("straight through"))
    #expect(try await reader.value == .text("straight through"))
  }

  @Test func theEndComesAfterEveryMessageThatWaited() async throws {
    let inbox = WebSocketInbox(capacity: 4) {}
    inbox.put(.text("last words"))
    inbox.finish(.success(()))
    #expect(try await inbox.next() == .text("last words"))
    #expect(try await inbox.next() == nil)
  }

  @Test func aFailureReachesTheReaderAfterWhatWaited() async throws {
    let inbox = WebSocketInbox(capacity: 4) {}
    inbox.put(.binary(Data([1])))
    inbox.finish(.failure(WebSocketError(kind: .closedAbnormally, detail: "gone")))
    #expect(try await inbox.next() == .binary(Data([1])))
    await #expect(throws: WebSocketError.self) { try await inbox.next() }
  }
}
