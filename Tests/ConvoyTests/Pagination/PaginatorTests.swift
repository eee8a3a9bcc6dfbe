import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct PaginatorTests {
  @Test func loadsPagesOnDemandAndAccumulatesTheirElements() async throws {
    let stub = linkedPagesStub()
    let paginator = Paginator(connection: .paging(stub), firstPage: Repositories())
    #expect(paginator.hasNextPage)
    #expect(paginator.elements.isEmpty)
    #expect(try await paginator.refresh() == [11, 12])
    #expect(stub.requests.count == 1)
    #expect(try await paginator.loadNextPage() == [21, 22])
    #expect(try await paginator.loadNextPage() == [31, 32])
    #expect(!paginator.hasNextPage)
    #expect(try await paginator.loadNextPage().isEmpty)
    #expect(paginator.elements == [11, 12, 21, 22, 31, 32])
    #expect(stub.requests.count == 3)
  }

  @Test func refreshStartsOverAndReplacesTheElements() async throws {
    let stub = linkedPagesStub()
    let paginator = Paginator(connection: .paging(stub), firstPage: Repositories())
    try await paginator.loadNextPage()
    try await paginator.loadNextPage()
    try await paginator.refresh()
    #expect(paginator.elements == [11, 12])
    #expect(paginator.hasNextPage)
  }

  @Test func concurrentLoadNextPageCallsShareOneFetch() async throws {
    // The page waits for a clock only the test moves, until both callers wait for it.
    let clock = TestClock()
    let stub = linkedPagesStub(delay: 1, clock: clock)
    let paginator = Paginator(connection: .paging(stub), firstPage: Repositories())
    async let first = paginator.loadNextPage()
    async let second = paginator.loadNextPage()
    #expect(await eventually { paginator.callersOfTheLoad == 2 })
    // The answer's wait is on the clock before the clock moves.
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 1)
    let (a, b) = try await (first, second)
    #expect(a == b)
    #expect(stub.requests.count == 1)
    #expect(paginator.elements == [11, 12])
  }

  @Test func cancellingTheOnlyCallerCancelsTheFetchAndKeepsTheList() async throws {
    // The clock never moves: the page cannot come before the cancel.
    let stub = linkedPagesStub(delay: 5, clock: TestClock())
    let paginator = Paginator(connection: .paging(stub), firstPage: Repositories())
    let task = Task { try await paginator.loadNextPage() }
    #expect(await eventually { stub.requests.count == 1 })
    task.cancel()
    await #expect(throws: ServerConnectionError.cancelled) { try await task.value }
    #expect(!paginator.isLoading)
    #expect(paginator.elements.isEmpty)
    #expect(paginator.hasNextPage)
  }

  @Test func aFailedPageCanBeLoadedAgain() async throws {
    let failures = Locked(1)
    let stub = StubTransport { request in
      let fail = failures.withLock { count -> Bool in
        defer { count -= 1 }
        return count > 0
      }
      return fail ? .status(500) : .json([1])
    }
    let paginator = Paginator(connection: .paging(stub), firstPage: Repositories())
    await #expect(throws: ServerConnectionError.self) { try await paginator.loadNextPage() }
    #expect(try await paginator.loadNextPage() == [1])
  }
}
