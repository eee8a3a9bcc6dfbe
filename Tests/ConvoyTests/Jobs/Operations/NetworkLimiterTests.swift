import Foundation
import Testing

@testable import Convoy

/// The connection's one count of transfers in flight: slots handed over in order, waits that
/// end at once when withdrawn, and no slot ever lost or given twice.
@Suite struct NetworkLimiterTests {
  @Test func aFreeSlotIsTakenWithoutWaiting() async {
    let limiter = NetworkLimiter(limit: 2)
    let granted = Locked<[Bool]>([])
    limiter.acquire { outcome in granted.withLock { $0.append(outcome) } }
    // Told before `acquire` returned: nothing was queued, nothing waited.
    #expect(granted.current == [true])
    #expect(await limiter.acquire())
    #expect(limiter.operationCount == 2)
  }

  @Test func tryingForASlotTakesOnlyAFreeOneAndNeverQueuesAhead() {
    let limiter = NetworkLimiter(limit: 1)
    #expect(limiter.tryAcquire())
    #expect(!limiter.tryAcquire())
    let granted = Locked<Bool?>(nil)
    limiter.acquire { outcome in granted.withLock { $0 = outcome } }
    // The released slot goes to the waiter in line, not to a caller that only tries.
    limiter.release()
    #expect(granted.current == true)
    #expect(!limiter.tryAcquire())
    limiter.release()
    #expect(limiter.tryAcquire())
    #expect(limiter.operationCount == 1)
  }

  @Test func releasedSlotsGoToTheWaitersInTheOrderTheyCame() {
    let limiter = NetworkLimiter(limit: 1)
    let order = Locked<[Int]>([])
    limiter.acquire { _ in order.withLock { $0.append(0) } }
    for number in 1...3 {
      limiter.acquire { granted in if granted { order.withLock { $0.append(number) } } }
    }
    #expect(order.current == [0])
    #expect(limiter.operationCount == 4)
    for _ in 1...3 { limiter.release() }
    #expect(order.current == [0, 1, 2, 3])
    limiter.release()
    #expect(limiter.operationCount == 0)
  }

  @Test func aWithdrawnWaiterIsToldNoAndNeverGetsTheSlot() {
    let limiter = NetworkLimiter(limit: 1)
    limiter.acquire { _ in }
    let outcomes = Locked<[Bool]>([])
    let waiter = limiter.acquire { granted in outcomes.withLock { $0.append(granted) } }
    limiter.withdraw(waiter)
    #expect(outcomes.current == [false])
    limiter.release()
    // The slot was not handed to the withdrawn waiter: it is free for the next caller.
    #expect(outcomes.current == [false])
    #expect(limiter.operationCount == 0)
    let next = Locked<Bool?>(nil)
    limiter.acquire { granted in next.withLock { $0 = granted } }
    #expect(next.current == true)
  }

  @Test func withdrawingAWaiterThatGotItsSlotChangesNothing() {
    let limiter = NetworkLimiter(limit: 1)
    let outcomes = Locked<[Bool]>([])
    let waiter = limiter.acquire { granted in outcomes.withLock { $0.append(granted) } }
    limiter.withdraw(waiter)
    #expect(outcomes.current == [true])
    #expect(limiter.operationCount == 1)
  }

  @Test func aCancelledTaskStopsWaitingAtOnceAndLeavesTheCountAsItWas() async throws {
    let limiter = NetworkLimiter(limit: 1)
    #expect(await limiter.acquire())
    let waiting = Task { await limiter.acquire() }
    try #require(await eventually { limiter.operationCount == 2 })
    waiting.cancel()
    #expect(await waiting.value == false)
    #expect(limiter.operationCount == 1)
    limiter.release()
    #expect(limiter.operationCount == 0)
  }

  @Test func manyTasksRacingCancellationNeverExceedTheLimitOrLoseASlot() async {
    let limiter = NetworkLimiter(limit: 3)
    let inFlight = Locked((now: 0, most: 0))
    await withTaskGroup(of: Void.self) { group in
      for number in 0..<500 {
        let task = Task {
          guard await limiter.acquire() else { return }
          inFlight.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
          }
          await Task.yield()
          inFlight.withLock { $0.now -= 1 }
          limiter.release()
        }
        group.addTask {
          if number % 3 == 0 { task.cancel() }
          await task.value
        }
      }
    }
    #expect(inFlight.current.most <= 3)
    #expect(limiter.operationCount == 0)
  }

  @Test func aLoneCallWaitsBehindAJobsCallForTheConnectionsOneSlot() async throws {
    let (connection, stub) = API.connection(networkLimit: 1)
    let blocker = connection.execute(
      API.NumberRequest(value: 0, delay: 30), completionQueue: testQueue
    ) { _ in }
    try #require(await eventually { stub.requests.count == 1 })
    let lone = Task { try await connection.execute(API.NumberRequest(value: 1)).value }
    // Counted, waiting: the job's call holds the only slot, whoever started it.
    try #require(await eventually { connection.jobQueues.network.operationCount == 2 })
    #expect(stub.requests.count == 1)
    blocker.cancel()
    #expect(try await lone.value == API.Number(value: 1))
    #expect(stub.requests.count == 2)
    #expect(await connection.settled())
  }
}
