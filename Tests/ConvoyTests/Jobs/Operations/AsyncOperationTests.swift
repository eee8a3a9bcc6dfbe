import Convoy
import Foundation
import Testing

@Suite struct AsyncOperationTests {
  @Test func queueSeesTheOperationFinishOnAnotherThread() async {
    let queue = OperationQueue()
    let operation = TimerOperation(delay: 0.01) { 42 }
    queue.addOperation(operation)
    #expect(await drained(queue))
    #expect(operation.isFinished)
    #expect(!operation.isExecuting)
    #expect(operation.result?.successValue == 42)
  }

  @Test func finishingTwiceKeepsTheFirstResult() async {
    let queue = OperationQueue()
    let operation = BlockResultOperation { 1 }
    queue.addOperation(operation)
    #expect(await drained(queue))
    operation.finish(with: .success(2))
    operation.finish(failingWith: TestError.boom)
    #expect(operation.result?.successValue == 1)
    #expect(operation.error == nil)
  }

  @Test func finishingBeforeStartIsIgnored() async {
    let operation = BlockResultOperation { 7 }
    operation.finish(with: .success(1))
    #expect(!operation.isFinished)
    let queue = OperationQueue()
    queue.addOperation(operation)
    #expect(await drained(queue))
    #expect(operation.result?.successValue == 7)
  }

  @Test func cancelledBeforeStartNeverExecutesAndFinishesCancelled() async {
    let queue = OperationQueue()
    let operation = TimerOperation { 1 }
    operation.cancel()
    queue.addOperation(operation)
    #expect(await drained(queue))
    #expect(operation.executionCount == 0)
    #expect(operation.isFinished)
    #expect(operation.error.isCancelledError)
  }

  @Test func cancelledWhileRunningFinishesOnlyOnceTheWorkStopped() async {
    let queue = OperationQueue()
    // An hour: under ThreadSanitizer on two busy cores this test's task once waited more than
    // 30 s for a thread, and the work had ended by itself before the test could cancel it.
    let operation = TimerOperation(delay: 3_600) { 1 }
    queue.addOperation(operation)
    #expect(await eventually { operation.isExecuting })
    operation.cancel()
    // The work needs ~10 ms to stop; until then the operation is still executing.
    #expect(!operation.isFinished)
    #expect(await drained(queue))
    #expect(operation.result?.failureValue as? TestError == .stopped)
    #expect(operation.executionCount == 1)
  }

  @Test func cancellingAfterFinishingChangesNothing() async {
    let queue = OperationQueue()
    let operation = BlockResultOperation { "done" }
    queue.addOperation(operation)
    #expect(await drained(queue))
    operation.cancel()
    operation.cancel()
    #expect(operation.result?.successValue == "done")
  }

  @Test func startingTwiceRunsTheWorkOnce() {
    let operation = TimerOperation(delay: 0) { 1 }
    operation.start()
    operation.start()
    #expect(operation.executionCount == 1)
  }

  @Test func dependentOfAFailedOperationSkipsItsWorkAndCarriesTheError() async {
    let queue = OperationQueue()
    let failing = BlockResultOperation<Int> { throw TestError.boom }
    let dependent = TimerOperation { 1 }
    let further = TimerOperation { 2 }
    dependent.addDependency(failing)
    further.addDependency(dependent)
    enqueue([further, dependent, failing], on: queue)
    #expect(await drained(queue))
    #expect(dependent.executionCount == 0)
    #expect(further.executionCount == 0)
    #expect(dependent.result?.failureValue as? TestError == .boom)
    #expect(further.result?.failureValue as? TestError == .boom)
  }

  @Test func dependentOfACancelledPlainOperationFinishesCancelled() async {
    let queue = OperationQueue()
    let plain = BlockOperation {}
    plain.cancel()
    let dependent = TimerOperation { 1 }
    dependent.addDependency(plain)
    enqueue([dependent, plain], on: queue)
    #expect(await drained(queue))
    #expect(dependent.executionCount == 0)
    #expect(dependent.error.isCancelledError)
  }

  @Test func dependentOfASucceededOperationRuns() async {
    let queue = OperationQueue()
    let first = BlockResultOperation { 1 }
    let second = TimerOperation { 2 }
    second.addDependency(first)
    enqueue([second, first], on: queue)
    #expect(await drained(queue))
    #expect(second.result?.successValue == 2)
  }

  @Test func cancellingAQueuedOperationWhileAnotherHoldsTheOnlySlotNeverRunsIt() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let blocker = TimerOperation(delay: 0.05) { 0 }
    let waiting = TimerOperation { 1 }
    enqueue([blocker, waiting], on: queue)
    waiting.cancel()
    #expect(await drained(queue))
    #expect(waiting.executionCount == 0)
    #expect(blocker.result?.successValue == 0)
  }

  @Test func thousandsOfOperationsAllFinishOnALinuxQueue() async {
    let queue = OperationQueue()
    let operations = (0..<5_000).map { index in BlockResultOperation { index } }
    for (index, operation) in operations.enumerated() where index % 3 == 0 { operation.cancel() }
    enqueue(operations, on: queue)
    #expect(await drained(queue, within: 30))
    #expect(operations.allSatisfy { $0.isFinished })
  }
}
