import Foundation
import Testing

@testable import Convoy

@Suite struct RequestURLMemoTests {
  @Test func aPathIsMadeOnceThenLookedUp() {
    let memo = RequestURLMemo()
    let made = Locked(0)
    for _ in 0..<3 {
      let url = memo.url(for: "a") {
        made.withLock { $0 += 1 }
        return URL(string: "https://h.example/a")
      }
      #expect(url?.absoluteString == "https://h.example/a")
    }
    #expect(made.current == 1)
  }

  @Test func aPathThatGivesNoURLIsAskedAgainNextTime() {
    let memo = RequestURLMemo()
    let made = Locked(0)
    for _ in 0..<2 {
      let url = memo.url(for: "bad") {
        made.withLock { $0 += 1 }
        return nil
      }
      #expect(url == nil)
    }
    #expect(made.current == 2)
    #expect(memo.count == 0)
  }

  @Test func pathsThatNeverRepeatHoldNoMoreThanTheCapacity() {
    let memo = RequestURLMemo()
    for index in 0..<(RequestURLMemo.capacity * 3 + 7) {
      let url = memo.url(for: "item/\(index)") { URL(string: "https://h.example/item/\(index)") }
      #expect(url?.lastPathComponent == "\(index)")
      #expect(memo.count <= RequestURLMemo.capacity)
    }
    #expect(memo.count > 0)
  }
}
