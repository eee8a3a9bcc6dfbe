import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct GroupOperationTests {
  @Test func valuesComeBackInTheChildrensOrderWhateverOrderTheyFinishIn() async throws {
    let (connection, _) = API.connection()
    let job = OperationJob { connection in
      GroupOperation(
        [0.05, 0.0, 0.02, 0.01].enumerated().map { index, delay in
          connection.operation(for: API.NumberRequest(value: index, delay: delay))
        }
      )
      .map { $0.map(\.value.value) }
    }
    #expect(try await connection.runAndWait(job)?.get() == [0, 1, 2, 3])
  }

  @Test func failFastCancelsTheSiblingsAndFailsWithTheFirstError() async {
    let (connection, _) = API.connection()
    let slow = Recorder<NetworkRequestOperation<API.NumberRequest>>()
    let job = OperationJob { connection in
      let sibling = connection.operation(for: API.NumberRequest(value: 1, delay: 30))
      slow.append(sibling)
      return GroupOperation([
        sibling, connection.operation(for: API.NumberRequest(value: 2)),
        connection.operation(for: API.FailingRequest(status: 500)),
      ])
    }
    let result = await connection.runAndWait(job)
    #expect((result?.failureValue as? ServerConnectionError)?.statusCode == 500)
    #expect(slow.all.first?.error?.isCancellation == true)
    #expect(slow.all.first?.isFinished == true)
  }

  @Test func collectAllHandsBackEveryChildsResult() async throws {
    let (connection, _) = API.connection()
    let job = OperationJob { connection in
      GroupOperation(collecting: [
        connection.operation(for: API.NumberRequest(value: 1, delay: 0.02)),
        connection.operation(for: API.FailingRequest(status: 404)),
        connection.operation(for: API.NumberRequest(value: 3)),
      ])
    }
    let results = try #require(try await connection.runAndWait(job)?.get())
    #expect(results.count == 3)
    #expect(results[0].successValue?.value.value == 1)
    #expect((results[1].failureValue as? ServerConnectionError)?.statusCode == 404)
    #expect(results[2].successValue?.value.value == 3)
  }

  @Test func tupleGroupsKeepEachChildsType() async throws {
    let (connection, _) = API.connection()
    let job = OperationJob { connection in
      GroupOperation.all(
        BlockResultOperation { "text" }, BlockResultOperation { 42 },
        connection.operation(for: API.ProfileRequest())
      )
      .map { text, number, profile in "\(text) \(number) \(profile.value.name)" }
    }
    #expect(try await connection.runAndWait(job)?.get() == "text 42 Ada")
    let collecting = OperationJob { _ in
      GroupOperation.collecting(
        BlockResultOperation<Int> { throw TestError.boom }, BlockResultOperation { "fine" })
    }
    let (number, text) = try #require(try await connection.runAndWait(collecting)?.get())
    #expect(number.failureValue as? TestError == .boom)
    #expect(text.successValue == "fine")
  }

  @Test func anEmptyGroupSucceedsAtOnce() async throws {
    let (connection, _) = API.connection()
    let job = OperationJob { _ in GroupOperation([ResultOperation<Int>]()) }
    #expect(try await connection.runAndWait(job)?.get() == [])
  }

  @Test func theGroupLimitCapsChildrenInFlight() async throws {
    let meter = ConcurrencyMeter(delay: 0.02)
    let connection = API.connection(networkLimit: 8, meter: meter)
    let job = OperationJob { connection in
      GroupOperation(
        (0..<12).map { connection.operation(for: API.NumberRequest(value: $0)) },
        maximumConcurrentChildren: 2)
    }
    #expect(try await connection.runAndWait(job)?.get().count == 12)
    #expect(meter.peak <= 2)
    #expect(meter.peak >= 1)
  }

  @Test func theConnectionLimitCapsRequestsAcrossJobs() async {
    let meter = ConcurrencyMeter(delay: 0.02)
    let connection = API.connection(networkLimit: 3, meter: meter)
    let job = OperationJob { connection in
      GroupOperation((0..<10).map { connection.operation(for: API.NumberRequest(value: $0)) })
    }
    async let first = connection.runAndWait(job)
    async let second = connection.runAndWait(job)
    let results = await [first, second]
    #expect(results.allSatisfy { $0?.successValue?.count == 10 })
    #expect(meter.peak <= 3)
  }

  @Test func groupsChainsAndGroupsNestToAnyDepth() async throws {
    let (connection, stub) = API.connection()
    let job = OperationJob { connection in
      GroupOperation(
        (1...3).map { branch in
          connection.operation(for: API.NumberRequest(value: branch))
            .then { first in
              GroupOperation(
                (1...2).map { leaf in
                  connection.operation(for: API.NumberRequest(value: first.value.value * 10 + leaf))
                })
            }
            .map { leaves in leaves.map(\.value.value).reduce(0, +) }
        })
    }
    #expect(try await connection.runAndWait(job)?.get() == [23, 43, 63])
    #expect(stub.requests.count == 9)
  }

  @Test func aBigGroupDoesNotStarveAJobStartedAfterIt() async {
    let (connection, _) = API.connection(networkLimit: 2)
    let bigDone = Recorder<Int>()
    let big = OperationJob { connection in
      GroupOperation(
        (0..<200).map { index in
          connection.operation(for: API.NumberRequest(value: index, delay: 0.005))
            .map { number in bigDone.append(number.value.value) }
        })
    }
    let bigOutcome = Outcome<Bool>()
    connection.run(big, completionQueue: testQueue) { bigOutcome.record($0.successValue != nil) }
    #expect(await eventually { bigDone.all.count >= 2 })
    let small = await connection.runAndWait(
      OperationJob { $0.operation(for: API.NumberRequest(value: -1)) })
    #expect(small?.successValue?.value.value == -1)
    // The small job waited behind a few of the big job's requests, not behind all 200.
    #expect(bigDone.all.count < 150)
    #expect(await bigOutcome.first(within: 30) == true)
  }
}
