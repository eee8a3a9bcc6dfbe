import Foundation
import Testing

@testable import Convoy

@Suite struct DeadlineSchedulerTests {
  @Test func runsAnActionOnceItsDeadlinePasses() async {
    let fired = Outcome<String>()
    _ = DeadlineScheduler.shared.schedule(after: 0.05) { fired.record("late") }
    #expect(await fired.first() == "late")
  }

  @Test func aCancelledActionNeverRuns() async throws {
    let fired = Recorder<String>()
    let later = Outcome<Void>()
    let token = DeadlineScheduler.shared.schedule(after: 0.05) { fired.append("cancelled") }
    token.cancel()
    // Deadlines run in order: once a later one ran, the cancelled one would have run before it.
    _ = DeadlineScheduler.shared.schedule(after: 0.1) { later.record(()) }
    #expect(await later.first() != nil)
    #expect(fired.all.isEmpty)
  }

  @Test func anEarlierDeadlineIsNotHeldUpByALaterOne() async {
    // An hour: held up by it, the earlier action would miss the wait's bound by far.
    let later = DeadlineScheduler.shared.schedule(after: 3_600) {}
    defer { later.cancel() }
    let earlier = Outcome<Void>()
    _ = DeadlineScheduler.shared.schedule(after: 0.1) { earlier.record(()) }
    #expect(await earlier.first() != nil)
  }
}
