import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Counts how often the transfers it sends are cancelled.
private final class CancelCounting: HTTPTransport, @unchecked Sendable {
  let wrapped: any HTTPTransport
  let cancels = Locked(0)

  init(_ wrapped: any HTTPTransport) { self.wrapped = wrapped }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    request.cancellation.whenCancelled { [cancels] in cancels.withLock { $0 += 1 } }
    return try await wrapped.send(request)
  }
}

/// Counts the callers that reached the coalescing layer: each joins its flight before it first
/// suspends.
private final class Arrivals: HTTPTransport, @unchecked Sendable {
  let wrapped: any HTTPTransport
  let count = Locked(0)

  init(_ wrapped: any HTTPTransport) { self.wrapped = wrapped }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    count.withLock { $0 += 1 }
    return try await wrapped.send(request)
  }
}

@Suite(.timeLimit(.minutes(3))) struct CoalescingTransportTests {
  /// Answers reads a second later on `clock`, which only the test moves, so calls are surely
  /// in flight together whatever the machine's load; writes at once.
  private func slowStub(on clock: TestClock) -> StubTransport {
    let stub = StubTransport { request in
      let answer = StubAnswer.json(["path": request.urlRequest.url?.path ?? ""])
      return request.urlRequest.httpMethod == "POST" ? answer : .delayed(1, answer)
    }
    stub.clock = clock
    return stub
  }

  private func connection(_ transport: any HTTPTransport) -> ServerConnection {
    ServerConnection(
      configuration: .local(port: 8080), transport: CoalescingTransport(wrapping: transport))
  }

  @Test func identicalGETsInFlightShareOneTransfer() async throws {
    let clock = TestClock()
    let stub = slowStub(on: clock)
    let arrivals = Arrivals(CoalescingTransport(wrapping: stub))
    let connection = ServerConnection(configuration: .local(port: 8080), transport: arrivals)
    async let first = connection.execute(CachedGet())
    async let second = connection.execute(CachedGet())
    async let third = connection.execute(CachedGet())
    // All three reached the coalescing layer while the one transfer waits for the clock.
    #expect(await eventually { arrivals.count.current == 3 })
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 1)
    let answers = try await [first, second, third]
    #expect(Set(answers.map(\.text)).count == 1)
    #expect(stub.requests.count == 1)
  }

  @Test func requestsWithDifferentHeadersAreNotShared() async throws {
    let clock = TestClock()
    let stub = slowStub(on: clock)
    let connection = connection(stub)
    async let alice = connection.execute(CachedGet(headers: ["Authorization": "Bearer alice"]))
    async let bob = connection.execute(CachedGet(headers: ["Authorization": "Bearer bob"]))
    // Both transfers wait for the clock at once: neither could have joined the other.
    #expect(await eventually { stub.requests.count == 2 })
    #expect(await clock.waitForWakeUps(2))
    clock.advance(by: 1)
    _ = try await (alice, bob)
    #expect(stub.requests.count == 2)
  }

  @Test func oneCallerCancellingLeavesTheOthersTransferRunning() async throws {
    // The answer waits for a test clock, so the cancel surely lands while it is in flight.
    let slowerStub = StubTransport { request in
      .delayed(2, .json(["path": request.urlRequest.url?.path ?? ""]))
    }
    let clock = TestClock()
    slowerStub.clock = clock
    let counting = CancelCounting(slowerStub)
    let arrivals = Arrivals(CoalescingTransport(wrapping: counting))
    let connection = ServerConnection(configuration: .local(port: 8080), transport: arrivals)
    let leaver = Task { try await connection.execute(CachedGet()) }
    let stayer = Task { try await connection.execute(CachedGet()) }
    // Both callers are on the one flight.
    #expect(await eventually { arrivals.count.current == 2 })
    #expect(await eventually { slowerStub.requests.count == 1 })
    leaver.cancel()
    await #expect(throws: ServerConnectionError.cancelled) { try await leaver.value }
    clock.advance(by: 2)
    #expect(try await stayer.value.status == 200)
    #expect(counting.cancels.current == 0)
    #expect(slowerStub.requests.count == 1)
  }

  @Test func theSharedTransferIsCancelledWhenEveryCallerHasCancelled() async throws {
    // The clock never moves: the answer cannot come before the cancels.
    let stub = slowStub(on: TestClock())
    let counting = CancelCounting(stub)
    let arrivals = Arrivals(CoalescingTransport(wrapping: counting))
    let connection = ServerConnection(configuration: .local(port: 8080), transport: arrivals)
    let tasks = (0..<3).map { _ in Task { try await connection.execute(CachedGet()) } }
    #expect(await eventually { arrivals.count.current == 3 })
    for task in tasks { task.cancel() }
    for task in tasks {
      await #expect(throws: ServerConnectionError.cancelled) { try await task.value }
    }
    #expect(counting.cancels.current == 1)
    #expect(stub.requests.count == 1)
  }

  @Test func aReadStartedAfterAWriteDoesNotJoinAnEarlierRead() async throws {
    let clock = TestClock()
    let stub = slowStub(on: clock)
    let connection = connection(stub)
    // The first read waits for the clock while the write and the second read are made.
    let before = Task { try await connection.execute(CachedGet()) }
    #expect(await eventually { stub.requests.count == 1 })
    _ = try await connection.execute(CachedPost())
    let after = Task { try await connection.execute(CachedGet()) }
    #expect(await eventually { stub.requests.count == 3 })
    #expect(await clock.waitForWakeUps(2))
    clock.advance(by: 1)
    _ = try await (before.value, after.value)
    #expect(stub.requests.map { $0.urlRequest.httpMethod } == ["GET", "POST", "GET"])
  }
}
