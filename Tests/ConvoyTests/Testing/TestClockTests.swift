import Convoy
import ConvoyTesting
import Foundation
import Testing

/// `TestClock` moves only when told, runs what falls due in a fixed order, and wakes sleepers.
@Suite(.timeLimit(.minutes(3))) struct TestClockTests {
  private let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func standsStillUntilAdvanced() {
    let clock = TestClock(now: start)
    #expect(clock.now == start)
    clock.advance(by: 90)
    #expect(clock.now == start.addingTimeInterval(90))
    clock.advance(to: start)
    #expect(clock.now == start.addingTimeInterval(90))
  }

  @Test func runsDueActionsEarliestFirstThenInScheduleOrder() {
    let clock = TestClock(now: start)
    let order = Recorder<String>()
    _ = clock.schedule(after: 5) { order.append("5 s, first") }
    _ = clock.schedule(after: 2) { order.append("2 s") }
    _ = clock.schedule(after: 5) { order.append("5 s, second") }
    _ = clock.schedule(after: 9) { order.append("9 s") }
    clock.advance(by: 5)
    #expect(order.all == ["2 s", "5 s, first", "5 s, second"])
    #expect(clock.pendingWakeUps == [4])
  }

  @Test func anActionSeesTheClockAtItsOwnDeadline() {
    let clock = TestClock(now: start)
    let seen = Recorder<Date>()
    _ = clock.schedule(after: 3) { seen.append(clock.now) }
    clock.advance(by: 10)
    #expect(seen.all == [start.addingTimeInterval(3)])
    #expect(clock.now == start.addingTimeInterval(10))
  }

  @Test func anActionScheduledByAnotherWithinTheAdvanceRunsToo() {
    let clock = TestClock(now: start)
    let order = Recorder<String>()
    _ = clock.schedule(after: 1) {
      order.append("outer")
      _ = clock.schedule(after: 1) { order.append("inner") }
    }
    clock.advance(by: 2)
    #expect(order.all == ["outer", "inner"])
  }

  @Test func aCancelledActionNeverRuns() {
    let clock = TestClock(now: start)
    let fired = Recorder<String>()
    let timer = clock.schedule(after: 1) { fired.append("cancelled") }
    timer.cancel()
    #expect(clock.pendingWakeUps.isEmpty)
    clock.advance(by: 10)
    #expect(fired.all.isEmpty)
  }

  @Test func aSleeperWakesOnlyWhenTheClockPassesItsDeadline() async throws {
    let clock = TestClock(now: start)
    let woke = Outcome<Date>()
    let sleeper = Task {
      try await clock.sleep(for: 30)
      woke.record(clock.now)
    }
    #expect(await clock.waitForWakeUps(1))
    #expect(clock.pendingWakeUps == [30])
    clock.advance(by: 29)
    #expect(woke.count == 0)
    clock.advance(by: 1)
    try await sleeper.value
    #expect(woke.all == [start.addingTimeInterval(30)])
  }

  @Test func sleepingUntilADateWaitsForThatDate() async throws {
    let clock = TestClock(now: start)
    let sleeper = Task { try await clock.sleep(until: start.addingTimeInterval(45)) }
    #expect(await clock.waitForWakeUps(1))
    #expect(clock.pendingWakeUps == [45])
    clock.advance(by: 45)
    try await sleeper.value
  }

  @Test func cancellingASleeperEndsItAtOnceAndDropsItsWakeUp() async {
    let clock = TestClock(now: start)
    let sleeper = Task { try await clock.sleep(for: 3_600) }
    #expect(await clock.waitForWakeUps(1))
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.pendingWakeUps.isEmpty)
  }

  @Test func aSleepOfNoTimeReturnsAtOnce() async throws {
    let clock = TestClock(now: start)
    try await clock.sleep(for: 0)
    #expect(clock.now == start)
  }

  @Test func waitingForWakeUpsThatNeverComeEndsAtItsBound() async {
    let clock = TestClock(now: start)
    #expect(await clock.waitForWakeUps(1, within: 0.05) == false)
  }
}
