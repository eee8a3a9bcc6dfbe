import Foundation
import Testing

@testable import Convoy

@Suite struct DeadlineSchedulerTests {
  @Test func runsAnActionOnceItsDeadlinePasses() async {
    let fired = Locked<[String]>([])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      _ = DeadlineScheduler.shared.schedule(after: 0.05) {
        fired.withLock { $0.append("late") }
        done.resume()
      }
    }
    #expect(fired.current == ["late"])
  }

  @Test func aCancelledActionNeverRuns() async throws {
    let fired = Locked(false)
    let token = DeadlineScheduler.shared.schedule(after: 0.05) { fired.withLock { $0 = true } }
    token.cancel()
    try await Task.sleep(for: .milliseconds(300))
    #expect(!fired.current)
  }

  @Test func anEarlierDeadlineIsNotHeldUpByALaterOne() async {
    let later = DeadlineScheduler.shared.schedule(after: 30) {}
    defer { later.cancel() }
    let started = Date()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      _ = DeadlineScheduler.shared.schedule(after: 0.1) { done.resume() }
    }
    #expect(Date().timeIntervalSince(started) < 10)
  }
}
