import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct JobRunTests {
  @Test func completionRunsOnTheRequestedQueue() async {
    let (connection, _) = API.connection()
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "ConvoyTests.requested")
    queue.setSpecific(key: key, value: "requested")
    let outcome = Outcome<String?>()
    connection.run(ThreeStepLoginJob(), completionQueue: queue) { _ in
      outcome.record(DispatchQueue.getSpecific(key: key))
    }
    #expect(await outcome.first() == .some("requested"))
  }

  @Test func progressCountsEveryOperationAndEndsComplete() async throws {
    let (connection, _) = API.connection()
    let updates = Recorder<JobProgress>()
    let outcome = Outcome<Result<[API.Number], any Error>>()
    let job = OperationJob { connection in
      GroupOperation((0..<5).map { connection.operation(for: API.NumberRequest(value: $0)) })
        .map { $0.map(\.value) }
    }
    let token = connection.run(
      job, completionQueue: testQueue, progress: { updates.append($0) },
      completion: { outcome.record($0) })
    _ = try #require(await outcome.first()).get()
    let last = try #require(updates.all.last)
    #expect(last.completedUnitCount == 5)
    #expect(last.totalUnitCount == 5)
    #expect(last.fractionCompleted == 1)
    #expect(token.progress == last)
    let completed = updates.all.map(\.completedUnitCount)
    #expect(completed == completed.sorted())
  }

  @Test func progressOfAChainGrowsAsStepsAreBuilt() async throws {
    let (connection, _) = API.connection()
    let updates = Recorder<JobProgress>()
    _ = try await connection.run(ThreeStepLoginJob(), progress: { updates.append($0) })
    #expect(updates.all.last == JobProgress(completedUnitCount: 3, totalUnitCount: 3))
  }

  @Test func executeRunsEachCallAsAnOperationOnTheNetworkQueue() async throws {
    let meter = ConcurrencyMeter(delay: 0.02)
    let connection = API.connection(networkLimit: 1, meter: meter)
    async let first = connection.execute(API.NumberRequest(value: 1))
    async let second = connection.execute(API.NumberRequest(value: 2))
    let values = try await [first.value.value, second.value.value]
    #expect(values == [1, 2])
    #expect(meter.peak == 1)
  }

  @Test func theURLRequestIsBuiltWhenTheOperationStartsNotWhenItIsCreated() async throws {
    let currentToken = Recorder<String>()
    currentToken.append("old")
    let stub = StubTransport(respond: ExampleAPI.answer)
    let signing = AnyRequestAdapter { request, _ in
      var request = request
      request.setValue(currentToken.all.last, forHTTPHeaderField: "X-Token")
      return request
    }
    let connection = ServerConnection(
      configuration: .local(port: 9), transport: stub, adapters: [signing])
    let operation = connection.operation(for: API.NumberRequest(value: 1))
    currentToken.append("new")
    _ = try await connection.run(OperationJob { _ in operation })
    #expect(stub.requests.first?.urlRequest.value(forHTTPHeaderField: "X-Token") == "new")
  }

  @Test func severalJobsRunSideBySide() async throws {
    let (connection, _) = API.connection()
    let results = try await withThrowingTaskGroup(of: API.Session.self) { group in
      for _ in 0..<20 { group.addTask { try await connection.run(ThreeStepLoginJob()) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 20)
  }
}
