import Convoy
import ConvoyTesting
import Foundation

/// Runs `work` while moving `clock` on to every wake-up closer than `below` seconds as soon as
/// one is scheduled: retries' back-offs, polls, delayed stub answers. Wake-ups further ahead (a
/// call's 60 s deadline) are left alone, so they never pass by accident.
@discardableResult
func drivingClock<T: Sendable>(
  _ clock: TestClock, below: TimeInterval = 10, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
  let job = Task { try await work() }
  let over = Locked(false)
  let driver = Task {
    while await eventually({ over.current || clock.pendingWakeUps.contains { $0 < below } }) {
      guard !over.current, let next = clock.pendingWakeUps.first(where: { $0 < below }) else {
        return
      }
      clock.advance(by: next)
    }
  }
  defer {
    over.withLock { $0 = true }
    driver.cancel()
  }
  return try await job.value
}
