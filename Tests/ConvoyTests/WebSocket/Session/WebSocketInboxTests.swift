import Foundation
import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct WebSocketInboxTests {
  @Test func aFullInboxHoldsTheWriterUntilTheReaderTakesAMessage() async throws {
    let inbox = WebSocketInbox(capacity: 2)
    let writer = Task {
      for number in 0..<3 { await inbox.put(.text("\(number)")) }
    }
    #expect(await eventually { inbox.hasWaitingWriter })
    #expect(try await inbox.next() == .text("0"))
    await writer.value
    #expect(!inbox.hasWaitingWriter)
    #expect(try await inbox.next() == .text("1"))
    #expect(try await inbox.next() == .text("2"))
  }

  @Test func theEndComesAfterEveryMessageThatWaited() async throws {
    let inbox = WebSocketInbox(capacity: 4)
    await inbox.put(.text("last words"))
    inbox.finish(.success(()))
    #expect(try await inbox.next() == .text("last words"))
    #expect(try await inbox.next() == nil)
  }

  @Test func aFailureReachesTheReaderAfterWhatWaited() async throws {
    let inbox = WebSocketInbox(capacity: 4)
    await inbox.put(.binary(Data([1])))
    inbox.finish(.failure(WebSocketError(kind: .closedAbnormally, detail: "gone")))
    #expect(try await inbox.next() == .binary(Data([1])))
    await #expect(throws: WebSocketError.self) { try await inbox.next() }
  }

  @Test func finishingReleasesAWaitingWriter() async throws {
    let inbox = WebSocketInbox(capacity: 1)
    await inbox.put(.text("0"))
    let writer = Task { await inbox.put(.text("1")) }
    #expect(await eventually { inbox.hasWaitingWriter })
    inbox.finish(.success(()))
    await writer.value
  }
}
