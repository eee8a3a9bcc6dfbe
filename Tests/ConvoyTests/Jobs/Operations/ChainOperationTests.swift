import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct ChainOperationTests {
  @Test func stepsRunInOrderEachBuiltFromThePreviousOutput() async throws {
    let (connection, stub) = API.connection()
    let built = Recorder<Int>()
    let job = OperationJob { connection in
      connection.operation(for: API.NumberRequest(value: 1))
        .then { first in
          built.append(first.value.value)
          return connection.operation(for: API.NumberRequest(value: first.value.value + 1))
        }
        .then { second in
          built.append(second.value.value)
          return connection.operation(for: API.NumberRequest(value: second.value.value * 10))
        }
        .map(\.value.value)
    }
    let result = await connection.runAndWait(job)
    #expect(try result?.get() == 20)
    #expect(built.all == [1, 2])
    #expect(stub.requests.map { $0.urlRequest.url!.path } == ["/value/1", "/value/2", "/value/20"])
  }

  @Test func anErrorStopsTheChainAndLaterStepsAreNeverBuilt() async {
    let (connection, stub) = API.connection()
    let built = Recorder<String>()
    let job = OperationJob { connection in
      connection.operation(for: API.FailingRequest(status: 500))
        .then { _ in
          built.append("second")
          return connection.operation(for: API.NumberRequest(value: 2))
        }
        .map { _ in built.append("map") }
    }
    let error = await connection.runAndWait(job)?.failureValue as? ServerConnectionError
    #expect(error?.statusCode == 500)
    #expect(built.all.isEmpty)
    #expect(stub.requests.count == 1)
  }

  @Test func aThrowingStepOrTransformStopsTheChainWithItsError() async {
    let (connection, _) = API.connection()
    let throwingStep = OperationJob { connection in
      connection.operation(for: API.NumberRequest(value: 1))
        .then { _ -> ResultOperation<Int> in throw TestError.boom }
    }
    #expect(await connection.runAndWait(throwingStep)?.failureValue as? TestError == .boom)
    let throwingMap = OperationJob { connection in
      BlockResultOperation { 1 }.map { _ -> Int in throw TestError.boom }.map { $0 + 1 }
    }
    #expect(await connection.runAndWait(throwingMap)?.failureValue as? TestError == .boom)
  }

  @Test func mapStepsRunInlineWithTypesIntact() async throws {
    let (connection, _) = API.connection()
    let job = OperationJob { _ in
      BlockResultOperation { 20 }
        .map { "\($0 + 1)" }
        .map { Array($0) }
        .map { $0.count }
    }
    #expect(try await connection.runAndWait(job)?.get() == 2)
  }

  @Test func aTenThousandStepChainCompletesWithoutPreWiredDependencies() async throws {
    let (connection, _) = API.connection()
    let job = OperationJob { _ in
      var chain = BlockResultOperation { 0 }.then { value in BlockResultOperation { value + 1 } }
      for _ in 1..<10_000 {
        chain = chain.then { value in BlockResultOperation { value + 1 } }
      }
      return chain
    }
    #expect(try await connection.runAndWait(job, within: 60)?.get() == 10_000)
  }

  @Test func aChainRunsOnAQueueOfTheCallersOwn() async {
    let queue = OperationQueue()
    let chain = BlockResultOperation { 2 }.then { value in BlockResultOperation { value * 21 } }
    queue.addOperation(chain)
    #expect(await drained(queue))
    #expect(chain.result?.successValue == 42)
  }

  @Test func cancellingAChainCancelsTheRunningStepAndBuildsNoMore() async {
    let (connection, stub) = API.connection()
    let built = Recorder<Int>()
    let job = OperationJob { connection in
      connection.operation(for: API.NumberRequest(value: 1, delay: 30))
        .then { _ in
          built.append(2)
          return connection.operation(for: API.NumberRequest(value: 2))
        }
    }
    let outcome = Outcome<Result<API.Number, any Error>>()
    let token = connection.run(job, completionQueue: testQueue) { outcome.record($0.map(\.value)) }
    #expect(await eventually { stub.requests.count == 1 })
    token.cancel()
    let result = await outcome.first()
    #expect(result?.failureValue?.isCancellation == true)
    #expect(built.all.isEmpty)
    #expect(stub.requests.count == 1)
  }
}

@Suite struct ReplacedChainTests {
  @Test func aChainReplacedByALongerOneStillFinishesWithItsOwnResult() async {
    let queue = OperationQueue()
    let short = BlockResultOperation { 1 }.map { $0 + 1 }
    let long = short.then { value in BlockResultOperation { "\(value * 10)" } }
    queue.addOperation(long)
    #expect(await drained(queue))
    #expect(long.result?.successValue == "20")
    #expect(short.isFinished)
    #expect(short.result?.successValue == 2)
  }

  @Test func aReplacedChainBeyondTheFailingStepFinishesWithTheError() async {
    let queue = OperationQueue()
    let failing = BlockResultOperation<Int> { throw TestError.boom }.map { $0 }
    let middle = failing.map { $0 + 1 }
    let long = middle.map { $0 + 2 }
    queue.addOperation(long)
    #expect(await drained(queue))
    #expect(long.error as? TestError == .boom)
    #expect(middle.error as? TestError == .boom)
    #expect(failing.error as? TestError == .boom)
  }
}
