#if os(Linux)
  import Convoy
  import ConvoyTestSupport
  import Foundation
  import FoundationNetworking
  import Testing

  /// The curl thread wakes only when it waits for work. A lost wake-up leaves a transfer sitting
  /// until the poll's cap: 60 s on an idle loop. Each transfer here is to a closed loopback port,
  /// refused in about a millisecond, and must complete within a bound (20 s) far above any load
  /// but far below the cap: a condition with a generous bound, not a measured time. On a busy
  /// loop other transfers' activity ends the poll soon anyway, so the second test is mainly a
  /// race test for ThreadSanitizer: eight tasks post while the loop completes transfers.
  @Suite(.timeLimit(.minutes(2)))
  struct CurlWakeupTests {
    @Test func aTransferPostedToAnIdleLoopStartsAtOnce() async throws {
      let transport = try CurlTransport()
      let url = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())/")!
      for _ in 0..<10 {
        // Real time on purpose: the loop must have gone back to waiting with nothing running,
        // which only the passing of time (its poll) brings about.
        try await Task.sleep(for: .milliseconds(30))
        try await expectRefusedPromptly(url, on: transport)
      }
    }

    @Test func transfersPostedFromManyThreadsWhileTheLoopIsBusyAllStartAtOnce() async throws {
      let transport = try CurlTransport()
      let url = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())/")!
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask {
            for _ in 0..<250 { try await expectRefusedPromptly(url, on: transport) }
          }
        }
        try await group.waitForAll()
      }
    }

    /// Expects the transfer to fail as refused, within the bound a lost wake-up would exceed.
    private func expectRefusedPromptly(_ url: URL, on transport: CurlTransport) async throws {
      let result = await BoundedWait.value(within: .seconds(20)) {
        await exchange(TransportRequest(urlRequest: URLRequest(url: url)), over: transport)
      }
      guard let result else {
        Issue.record("a transfer was still waiting after 20 s: a wake-up was lost")
        return
      }
      guard case .failure(let failure) = result else {
        Issue.record("a closed port answered")
        return
      }
      #expect(failure.kind == .cannotConnectToHost)
    }
  }
#endif
