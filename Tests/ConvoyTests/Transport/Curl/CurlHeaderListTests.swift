#if os(Linux)
  import Foundation
  import Testing

  @testable import Convoy

  @Suite struct CurlHeaderListTests {
    private func lines(_ fields: [String: String]) throws -> [String] {
      let library = try CurlLibrary.shared.get()
      return CurlHeaderList(fields: fields, defaultUserAgent: "app/1", library: library).lines
    }

    @Test func aRequestWithoutFieldsGetsTheUserAgentAndNoExpectNorContentType() throws {
      #expect(try lines([:]) == ["User-Agent: app/1", "Expect:", "Content-Type:"])
    }

    @Test func theRequestsOwnFieldsReplaceWhatTheListWouldAdd() throws {
      let sent = try lines([
        "user-agent": "mine", "EXPECT": "100-continue", "Content-Type": "text/plain",
      ])
      #expect(
        sent.sorted()
          == ["EXPECT: 100-continue", "Content-Type: text/plain", "user-agent: mine"].sorted())
    }

    @Test func anEmptyValueIsSentInLibcurlsSpelling() throws {
      #expect(try lines(["X-Empty": ""]).first == "X-Empty;")
    }

    @Test func aContentLengthAndALineWithABreakAreLeftOut() throws {
      let sent = try lines([
        "Content-Length": "9", "X-Smuggle": "a\r\nHost: elsewhere", "X-Ok": "1",
      ])
      #expect(sent == ["X-Ok: 1", "User-Agent: app/1", "Expect:", "Content-Type:"])
    }
  }

  @Suite struct CurlHeaderListMemoTests {
    /// Builds lists for the memo and counts how many it asked for.
    private final class Maker: Sendable {
      let library: CurlLibrary
      let made = Locked(0)

      init() throws { library = try CurlLibrary.shared.get() }

      func list(_ fields: [String: String], from memo: CurlHeaderListMemo) -> CurlHeaderList {
        memo.list(for: fields) {
          made.withLock { $0 += 1 }
          return CurlHeaderList(fields: fields, defaultUserAgent: "app/1", library: library)
        }
      }

      var count: Int { made.withLock { $0 } }
    }

    @Test func callsSendingTheSameFieldsShareOneList() throws {
      let memo = CurlHeaderListMemo()
      let maker = try Maker()
      let fields = ["Accept": "application/json", "Authorization": "Bearer a"]
      let first = maker.list(fields, from: memo)
      let second = maker.list(fields, from: memo)
      #expect(first === second)
      #expect(maker.count == 1)
      let third = maker.list(
        ["Accept": "application/json", "Authorization": "Bearer b"], from: memo)
      #expect(third !== first, "another token is another list")
      #expect(third.lines.contains("Authorization: Bearer b"))
    }

    @Test func theLeastRecentlyUsedListIsDroppedPastTheCapacityAndLivesWhileUsed() throws {
      let memo = CurlHeaderListMemo()
      let maker = try Maker()
      let sets = (0...CurlHeaderListMemo.capacity).map { ["X-Call": "\($0)"] }
      let oldest = maker.list(sets[0], from: memo)
      for fields in sets.dropFirst() { _ = maker.list(fields, from: memo) }
      #expect(maker.count == CurlHeaderListMemo.capacity + 1)
      // Dropped from the memo, the first list is still whole for the transfer holding it.
      #expect(oldest.lines.first == "X-Call: 0")
      #expect(maker.list(sets[0], from: memo) !== oldest)
      #expect(maker.count == CurlHeaderListMemo.capacity + 2)
      // The most recent sets were kept.
      _ = maker.list(sets[CurlHeaderListMemo.capacity], from: memo)
      #expect(maker.count == CurlHeaderListMemo.capacity + 2)
    }
  }
#endif
