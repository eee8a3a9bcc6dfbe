#if os(Linux)
  import Convoy
  import Foundation
  import FoundationNetworking
  import Testing

  /// The curl thread wakes only when it waits for work. A lost wake-up leaves a transfer sitting
  /// until the poll's cap: 60 s on an idle loop, which the bound here catches. On a busy loop other
  /// transfers' activity ends the poll soon anyway, so the second test is mainly a race test for
  /// ThreadSanitizer: eight threads post while the loop completes transfers. Refused connections
  /// on a closed loopback port finish in about a millisecond; the bound leaves room for a machine
  /// loaded by the whole suite under ThreadSanitizer (0.8 s was seen there).
  @Suite(.timeLimit(.minutes(1)))
  struct CurlWakeupTests {
    private static let bound: TimeInterval = 3

    @Test func aTransferPostedToAnIdleLoopStartsAtOnce() async throws {
      let transport = try CurlTransport()
      let url = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())/")!
      for _ in 0..<10 {
        // Long enough for the loop to have gone back to waiting with nothing running.
        try await Task.sleep(for: .milliseconds(30))
        #expect(try await latency(of: url, on: transport) < Self.bound)
      }
    }

    @Test func transfersPostedFromManyThreadsWhileTheLoopIsBusyAllStartAtOnce() async throws {
      let transport = try CurlTransport()
      let url = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())/")!
      let slowest = try await withThrowingTaskGroup(of: TimeInterval.self) { group in
        for _ in 0..<8 {
          group.addTask {
            var slowest: TimeInterval = 0
            for _ in 0..<250 where slowest < Self.bound {
              slowest = max(slowest, try await latency(of: url, on: transport))
            }
            return slowest
          }
        }
        return try await group.reduce(0) { max($0, $1) }
      }
      #expect(slowest < Self.bound)
    }

    /// How long a transfer took from posting to completion (it must fail as refused); a transfer
    /// still running after 5 s counts as stuck rather than hanging the test.
    private func latency(of url: URL, on transport: CurlTransport) async throws -> TimeInterval {
      let start = Date()
      let pending = Locked<
        CheckedContinuation<Result<TransportResponse, TransportFailure>?, Never>?
      >(
        nil)
      let result = await withCheckedContinuation { continuation in
        pending.withLock { $0 = continuation }
        _ = transport.startTransfer(TransportRequest(urlRequest: URLRequest(url: url))) { result in
          pending.withLock { $0.take() }?.resume(returning: result)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
          pending.withLock { $0.take() }?.resume(returning: nil)
        }
      }
      guard let result else {
        Issue.record("a transfer was still waiting after 5 s")
        return .infinity
      }
      guard case .failure(let failure) = result else {
        Issue.record("a closed port answered")
        return 0
      }
      #expect(failure.kind == .cannotConnectToHost)
      return Date().timeIntervalSince(start)
    }
  }
#endif
