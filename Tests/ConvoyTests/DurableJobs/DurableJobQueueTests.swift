import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A request a durable job can hold: a `POST`, so its steps carry an idempotency key.
private struct PlaceOrder: DurableRequest {
  static let durableName = "place-order"
  typealias Response = EmptyResponse
  let itemID: Int
  var method: HTTPMethod { .post }
  var path: String { "orders/\(itemID)" }
}

/// A `PUT`: idempotent, so sent without a key.
private struct SaveNote: DurableRequest {
  static let durableName = "save-note"
  typealias Response = EmptyResponse
  let text: String
  var method: HTTPMethod { .put }
  var path: String { "note" }
}

/// A request no queue registers.
private struct Unknown: DurableRequest {
  static let durableName = "unknown"
  typealias Response = EmptyResponse
  var method: HTTPMethod { .get }
  var path: String { "x" }
}

/// A queue over a stub transport and a test clock, with its journal in a folder of its own.
private struct QueueCase {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-queue-\(UUID().uuidString)", isDirectory: true)
  let clock = TestClock()
  var journal: URL { directory.appendingPathComponent("jobs.journal") }

  /// A queue on a connection whose transport answers with `answer`; the app's `run`th start.
  func queue(
    events: Recorder<ConvoyEvent>? = nil,
    answering answer: @escaping @Sendable (TransportRequest) -> StubAnswer
  ) -> (DurableJobQueue, StubTransport) {
    let transport = StubTransport(respond: answer)
    transport.clock = clock
    var configuration = ServerConfiguration.local(port: 8080)
    configuration.clock = clock
    configuration.retryPolicy = .never
    let queue = DurableJobQueue(
      connection: ServerConnection(
        configuration: configuration, transport: transport,
        observers: events.map { events in [AnyEventObserver { events.append($0) }] } ?? []),
      fileURL: journal)
    queue.register(PlaceOrder.self)
    queue.register(SaveNote.self)
    return (queue, transport)
  }

  func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

/// The first `count` outcomes of `queue`.
private func outcomes(of queue: DurableJobQueue, count: Int) async -> [DurableJobOutcome] {
  var found: [DurableJobOutcome] = []
  for await outcome in queue.outcomes() {
    found.append(outcome)
    if found.count == count { break }
  }
  return found
}

@Suite(.timeLimit(.minutes(1))) struct DurableJobQueueTests {
  @Test func aJobsStepsAreSentInOrderAndItSucceeds() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, transport) = test.queue { _ in .status(204) }
    try await queue.start()
    let job = try DurableJob(
      steps: [.request(PlaceOrder(itemID: 1)), .request(SaveNote(text: "done"))])
    try await queue.add(job)
    let outcome = await outcomes(of: queue, count: 1)
    #expect(outcome.map(\.jobID) == [job.id])
    #expect(outcome.first?.ending == .succeeded)
    #expect(transport.requests.map { $0.urlRequest.url?.path } == ["/orders/1", "/note"])
    queue.stop()
  }

  @Test func aStepThatIsNotIdempotentCarriesTheSameKeyOnEveryAttempt() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let answers = Locked([
      StubAnswer.status(503),
      .failure(TransportFailure(kind: .notConnectedToInternet, detail: "offline")), .status(201),
    ])
    let (queue, transport) = test.queue { _ in answers.withLock { $0.removeFirst() } }
    try await queue.start()
    let step = try DurableJobStep.request(PlaceOrder(itemID: 2))
    try await queue.add(DurableJob(steps: [step]))
    let outcome = try await drivingClock(test.clock) { await outcomes(of: queue, count: 1) }
    #expect(outcome.first?.ending == .succeeded)
    let keys = transport.requests.map { $0.urlRequest.value(forHTTPHeaderField: "Idempotency-Key") }
    #expect(keys.count == 3)
    #expect(Set(keys).count == 1)
    #expect(keys.first == step.idempotencyKey)
    #expect(step.idempotencyKey != nil)
    queue.stop()
  }

  @Test func anIdempotentStepIsSentWithoutAKey() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, transport) = test.queue { _ in .status(204) }
    try await queue.start()
    try await queue.add(try DurableJob(steps: [.request(SaveNote(text: "x"))]))
    _ = await outcomes(of: queue, count: 1)
    #expect(
      transport.requests.first?.urlRequest.value(forHTTPHeaderField: "Idempotency-Key") == nil)
    queue.stop()
  }

  @Test func anAnswerTheRequestRefusesFailsTheJobAtOnceWithASentence() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, transport) = test.queue { _ in .status(404) }
    try await queue.start()
    try await queue.add(
      try DurableJob(steps: [.request(PlaceOrder(itemID: 3)), .request(SaveNote(text: "x"))]))
    let outcome = await outcomes(of: queue, count: 1)
    guard case .failed(let step, let category, let message)? = outcome.first?.ending else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(step == 0)
    #expect(category == .notFound)
    #expect(!message.isEmpty)
    #expect(transport.requests.count == 1)
    queue.stop()
  }

  @Test func transientFailuresAreTriedUpToTheMaximumThenTheJobFails() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, transport) = test.queue { _ in .status(503) }
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(PlaceOrder(itemID: 4))],
        constraints: DurableJobConstraints(maximumAttempts: 3, baseDelay: 1)))
    let outcome = try await drivingClock(test.clock) { await outcomes(of: queue, count: 1) }
    guard case .failed(_, let category, _)? = outcome.first?.ending else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(category == .serverFailure)
    #expect(transport.requests.count == 3)
    queue.stop()
  }

  @Test func anUnfinishedJobResumesAfterARestartFromItsLastFinishedStepWithItsKey() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    // The first run: step 0 succeeds, step 1 finds the server down, and the app is stopped.
    let (first, firstTransport) = test.queue { request in
      request.urlRequest.url?.path == "/orders/5" ? .status(503) : .status(204)
    }
    try await first.start()
    let job = try DurableJob(
      steps: [
        .request(SaveNote(text: "before")), .request(PlaceOrder(itemID: 5)),
        .request(SaveNote(text: "after")),
      ],
      constraints: DurableJobConstraints(baseDelay: 1000, maximumDelay: 1000))
    try await first.add(job)
    #expect(await test.clock.waitForWakeUp(in: 1000))
    first.stop()
    #expect(firstTransport.requests.map { $0.urlRequest.url?.path } == ["/note", "/orders/5"])

    // The second run: the job goes on with step 1, with the key it was given when accepted.
    let (second, secondTransport) = test.queue { _ in .status(204) }
    try await second.start()
    #expect(try await second.unfinishedJobs().map(\.id) == [job.id])
    let outcome = await outcomes(of: second, count: 1)
    #expect(outcome.first?.ending == .succeeded)
    let paths = secondTransport.requests.map { $0.urlRequest.url?.path }
    #expect(paths == ["/orders/5", "/note"])
    // The first step's success is in the journal: it is not sent again.
    let firstKey = try #require(firstTransport.requests.last).urlRequest.value(
      forHTTPHeaderField: "Idempotency-Key")
    let secondKey = try #require(secondTransport.requests.first).urlRequest.value(
      forHTTPHeaderField: "Idempotency-Key")
    #expect(firstKey != nil)
    #expect(secondKey == firstKey)
    second.stop()
  }

  @Test func outcomesOfAnEarlierRunAreKeptUntilForgotten() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (first, _) = test.queue { _ in .status(204) }
    try await first.start()
    let job = try DurableJob(steps: [.request(SaveNote(text: "x"))])
    try await first.add(job)
    _ = await outcomes(of: first, count: 1)
    first.stop()

    let (second, _) = test.queue { _ in .status(204) }
    try await second.start()
    #expect(await outcomes(of: second, count: 1).map(\.jobID) == [job.id])
    try await second.forgetOutcome(of: job.id)
    second.stop()

    let (third, _) = test.queue { _ in .status(204) }
    try await third.start()
    try await third.add(try DurableJob(steps: [.request(SaveNote(text: "y"))]))
    let next = await outcomes(of: third, count: 1)
    #expect(next.first?.jobID != job.id)
    third.stop()
  }

  @Test func aJobTheAppCouldNotSendLaterIsRefused() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, _) = test.queue { _ in .status(204) }
    try await queue.start()
    let error = await #expect(throws: DurableJobQueueError.self) {
      try await queue.add(try DurableJob(steps: [.request(Unknown())]))
    }
    #expect(error?.kind == .unregisteredRequest(name: "unknown"))
    await #expect(throws: DurableJobQueueError.self) { try await queue.add(DurableJob(steps: [])) }
    #expect(try await queue.unfinishedJobs().isEmpty)
    queue.stop()
  }

  @Test func aJobThatExpiresWhileTheServerIsDownEndsExpired() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, _) = test.queue { _ in .status(503) }
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(PlaceOrder(itemID: 6))],
        constraints: DurableJobConstraints(
          expiresAt: test.clock.now.addingTimeInterval(5), maximumAttempts: 100, baseDelay: 1)))
    let outcome = try await drivingClock(test.clock) { await outcomes(of: queue, count: 1) }
    #expect(outcome.first?.ending == .expired)
    queue.stop()
  }

  @Test func aJobWaitsForItsNotBeforeDate() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, transport) = test.queue { _ in .status(204) }
    try await queue.start()
    try await queue.add(
      try DurableJob(
        steps: [.request(SaveNote(text: "later"))],
        constraints: DurableJobConstraints(notBefore: test.clock.now.addingTimeInterval(3600))))
    #expect(await test.clock.waitForWakeUp(in: 3600))
    #expect(transport.requests.isEmpty)
    test.clock.advance(by: 3600)
    #expect(await outcomes(of: queue, count: 1).first?.ending == .succeeded)
    queue.stop()
  }

  @Test func eachChangeOfAJobIsAnEvent() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let events = Recorder<ConvoyEvent>()
    let answers = Locked([StubAnswer.status(503), .status(201), .status(204)])
    let (queue, _) = test.queue(events: events) { _ in answers.withLock { $0.removeFirst() } }
    try await queue.start()
    let job = try DurableJob(
      steps: [.request(PlaceOrder(itemID: 8)), .request(SaveNote(text: "x"))])
    try await queue.add(job)
    _ = try await drivingClock(test.clock) { await outcomes(of: queue, count: 1) }
    queue.stop()
    let changes = events.all.compactMap { event -> ConvoyEvent.DurableJobChanged? in
      guard case .durableJob(let changed) = event.kind else { return nil }
      return changed
    }
    #expect(
      changes.map(\.change) == [.accepted, .retrying, .stepFinished, .stepFinished, .succeeded])
    #expect(changes.allSatisfy { $0.jobID == job.id })
    #expect(changes[1].errorCategory == .serverFailure)
    #expect(changes[1].delay == 1)
    #expect(changes.map(\.step) == [nil, 0, 0, 1, nil])
  }

  @Test func aJournalTornByACrashIsRepairedWithAnEventAndTheAcceptedJobsKept() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (first, _) = test.queue { _ in .status(503) }
    try await first.start()
    let job = try DurableJob(
      steps: [.request(SaveNote(text: "kept"))],
      constraints: DurableJobConstraints(baseDelay: 1000, maximumDelay: 1000))
    try await first.add(job)
    #expect(await test.clock.waitForWakeUp(in: 1000))
    first.stop()
    // A crash in the middle of the next write: half a record at the end of the file.
    let handle = try FileHandle(forWritingTo: test.journal)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("CVR1\u{40}\u{0}\u{0}\u{0}half".utf8))
    try handle.close()

    let events = Recorder<ConvoyEvent>()
    let (second, _) = test.queue(events: events) { _ in .status(204) }
    try await second.start()
    #expect(await outcomes(of: second, count: 1).first?.jobID == job.id)
    second.stop()
    let repaired = events.all.compactMap { event -> ConvoyEvent.JournalRepaired? in
      guard case .journalRepaired(let repaired) = event.kind else { return nil }
      return repaired
    }
    #expect(
      repaired == [
        .init(file: "jobs.journal", droppedBytes: 12, onlyAtTheEnd: true, unreadableRecords: 0)
      ])
    #expect(
      events.all.contains { event in
        if case .durableJob(let changed) = event.kind { return changed.change == .resumed }
        return false
      })
  }

  @Test func aJournalServesOneProcessAtATime() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (first, _) = test.queue { _ in .status(204) }
    try await first.start()
    let (second, _) = test.queue { _ in .status(204) }
    let error = await #expect(throws: DurableJobQueueError.self) { try await second.start() }
    #expect(error?.kind == .inUse)
    first.stop()
    try await second.start()
    second.stop()
  }

  @Test func aJobIsAcceptedOnceWhetherUnfinishedOrEnded() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, transport) = test.queue { _ in .status(204) }
    try await queue.start()
    let job = try DurableJob(steps: [.request(SaveNote(text: "once"))])
    try await queue.add(job)
    _ = await outcomes(of: queue, count: 1)
    let error = await #expect(throws: DurableJobQueueError.self) { try await queue.add(job) }
    #expect(error?.kind == .duplicateJob(job.id))
    #expect(transport.requests.count == 1)
    queue.stop()
  }

  @Test func jobsAddedTogetherRunInTheirOrderAndSurviveARestart() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let jobs = try (1...3).map { try DurableJob(steps: [.request(PlaceOrder(itemID: $0))]) }
    let (first, _) = test.queue { _ in .status(503) }
    try await first.start()
    try await first.add(contentsOf: jobs)
    first.stop()

    let (second, transport) = test.queue { _ in .status(204) }
    try await second.start()
    let ended = await outcomes(of: second, count: 3)
    #expect(ended.map(\.jobID) == jobs.map(\.id))
    #expect(
      transport.requests.map { $0.urlRequest.url?.path } == ["/orders/1", "/orders/2", "/orders/3"])
    second.stop()
  }

  @Test func aBatchWithOneJobThatCannotBeAcceptedAcceptsNone() async throws {
    let test = QueueCase()
    defer { test.cleanUp() }
    let (queue, _) = test.queue { _ in .status(503) }
    try await queue.start()
    let kept = try DurableJob(steps: [.request(PlaceOrder(itemID: 1))])
    try await queue.add(kept)
    let fresh = try DurableJob(steps: [.request(PlaceOrder(itemID: 2))])
    let unknown = try DurableJob(steps: [.request(Unknown())])

    let unregistered = await #expect(throws: DurableJobQueueError.self) {
      try await queue.add(contentsOf: [fresh, unknown])
    }
    #expect(unregistered?.kind == .unregisteredRequest(name: "unknown"))
    let duplicate = await #expect(throws: DurableJobQueueError.self) {
      try await queue.add(contentsOf: [fresh, kept])
    }
    #expect(duplicate?.kind == .duplicateJob(kept.id))
    let twice = await #expect(throws: DurableJobQueueError.self) {
      try await queue.add(contentsOf: [fresh, fresh])
    }
    #expect(twice?.kind == .duplicateJob(fresh.id))
    #expect(try await queue.unfinishedJobs().map(\.id) == [kept.id])
    // The refused batch left nothing behind: its jobs can be added afterwards.
    try await queue.add(contentsOf: [fresh])
    #expect(try await queue.unfinishedJobs().map(\.id) == [kept.id, fresh.id])
    queue.stop()
  }
}
