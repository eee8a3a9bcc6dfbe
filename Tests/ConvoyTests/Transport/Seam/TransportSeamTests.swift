import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport written against the seam alone, as an app's would be: it answers nothing until
/// its request's cancellation is tripped, and records that it was.
private final class WaitsForCancellation: HTTPTransport, @unchecked Sendable {
  let started = Locked(0)
  let stopped = Locked(0)

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    started.withLock { $0 += 1 }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      request.cancellation.whenCancelled { continuation.resume() }
    }
    stopped.withLock { $0 += 1 }
    throw TransportFailure(kind: .cancelled, detail: "stopped")
  }
}

/// Answers every request whole, with trailers, without suspending.
private struct AnswersWhole: HTTPTransport {
  static let body = Data("first line\nsecond line\n".utf8)

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    TransportAnswer(
      head: HTTPResponse(
        statusCode: 200, url: request.urlRequest.url, headers: ["Content-Type": "text/plain"]),
      body: TransportBody(
        data: Self.body,
        metrics: TransferMetrics(
          startDate: Date(), duration: 0, bytesReceived: Self.body.count, bytesSent: 0),
        trailers: ["X-Checksum": "abc"]))
  }
}

private struct Lines: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "lines" }
}

/// The one transport seam: what a transport of one `send` function gets from Convoy, and what
/// Convoy makes of what it returns.
@Suite(.timeLimit(.minutes(1))) struct TransportSeamTests {
  private func connection(_ transport: any HTTPTransport, clock: TestClock? = nil)
    -> ServerConnection
  {
    var configuration = ServerConfiguration.local(port: 9)
    configuration.timeout = 5
    if let clock { configuration.clock = clock }
    return ServerConnection(configuration: configuration, transport: transport)
  }

  @Test func theCallsDeadlineReachesATransportAsItsRequestsCancellation() async throws {
    let clock = TestClock()
    let transport = WaitsForCancellation()
    let call = Task { try await connection(transport, clock: clock).execute(Lines()) }
    #expect(await eventually { transport.started.current == 1 })
    #expect(await clock.waitForWakeUps())
    clock.advance(by: 5)
    await #expect {
      try await call.value
    } throws: { error in
      if case .timedOut = error as? ServerConnectionError { return true }
      return false
    }
    #expect(transport.stopped.current == 1)
  }

  @Test func cancellingTheCallsTaskReachesTheTransportAsItsRequestsCancellation() async throws {
    let transport = WaitsForCancellation()
    let call = Task { try await connection(transport).execute(Lines()) }
    #expect(await eventually { transport.started.current == 1 })
    call.cancel()
    await #expect(throws: ServerConnectionError.cancelled) { try await call.value }
    #expect(transport.stopped.current == 1)
  }

  @Test func aStreamReadsABodyATransportMadeWholeWithItsTrailers() async throws {
    let stream = try await connection(AnswersWhole()).stream(Lines())
    var body = Data()
    for try await piece in stream.body { body.append(piece) }
    #expect(body == AnswersWhole.body)
    #expect(stream.body.trailers["X-Checksum"] == "abc")
  }

  @Test func aBufferedCallGetsTheWholeBodyATransportMade() async throws {
    let answer = try await connection(AnswersWhole()).execute(Lines())
    #expect(answer.data == AnswersWhole.body)
  }

  @Test func aWholeBodyIsOnePieceThenItsEnd() async throws {
    let body = try await AnswersWhole().send(
      TransportRequest(urlRequest: URLRequest(url: URL(string: "http://127.0.0.1:9/")!))
    ).body
    var pieces: [Data] = []
    for try await piece in body { pieces.append(piece) }
    #expect(pieces == [AnswersWhole.body])
    #expect(body.metrics?.bytesReceived == AnswersWhole.body.count)
    #expect(body.trailers["X-Checksum"] == "abc")
  }

  @Test func collectingAFlowingBodyPastTheLimitStopsItsTransfer() async throws {
    let handle = CountingHandle()
    let buffer = StreamBuffer(capacity: 1 << 20)
    buffer.start { handle }
    buffer.transferDidReceiveHead(HTTPResponse(statusCode: 200, url: nil, headers: [:]))
    for _ in 0..<3 { _ = buffer.transferDidReceiveBody(Data(count: 4)) }
    let answer = TransportAnswer(
      head: HTTPResponse(statusCode: 200, url: nil, headers: [:]),
      body: TransportBody(flowing: buffer))
    await #expect {
      _ = try await answer.collected(within: ResponseLimits(maximumBodySize: 10))
    } throws: { error in
      (error as? TransportFailure)?.kind == .responseTooLarge
    }
    #expect(handle.cancels.current == 1)
  }

  @Test func aCancellationRunsWhatRegisteredOnceAndWhatRegistersLaterAtOnce() {
    let cancellation = TransferCancellation()
    let runs = Locked(0)
    cancellation.whenCancelled { runs.withLock { $0 += 1 } }
    #expect(runs.current == 0)
    cancellation.cancel()
    cancellation.cancel()
    #expect(runs.current == 1)
    cancellation.whenCancelled { runs.withLock { $0 += 1 } }
    #expect(runs.current == 2)
    #expect(cancellation.isCancelled)
  }

  @Test func aRetiredCancellationKeepsNothingAlive() {
    let cancellation = TransferCancellation()
    weak var weakBox: Box?
    do {
      let box = Box()
      weakBox = box
      cancellation.whenCancelled { _ = box }
      cancellation.retire()
    }
    #expect(weakBox == nil)
    #expect(!cancellation.isCancelled)
  }

  @Test func theDefaultCancellationIsNeverTrippedAndKeepsNothing() {
    let runs = Locked(0)
    let request = TransportRequest(
      urlRequest: URLRequest(url: URL(string: "http://127.0.0.1:9/")!))
    request.cancellation.whenCancelled { runs.withLock { $0 += 1 } }
    request.cancellation.cancel()
    #expect(runs.current == 0)
    #expect(!request.cancellation.isCancelled)
    #expect(request.cancellation === TransferCancellation.none)
  }

  @Test func everyActionRegisteredRunsOnceOnCancel() {
    let cancellation = TransferCancellation()
    let runs = Locked<[Int]>([])
    for index in 0..<3 { cancellation.whenCancelled { runs.withLock { $0.append(index) } } }
    cancellation.cancel()
    #expect(runs.current == [0, 1, 2])
  }
}

private final class Box: Sendable {}

private final class CountingHandle: StreamingTransferHandle {
  let cancels = Locked(0)
  func cancel() { cancels.withLock { $0 += 1 } }
  func resumeReceiving() {}
}
