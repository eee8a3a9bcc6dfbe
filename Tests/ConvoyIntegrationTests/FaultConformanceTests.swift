import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One failure for one fault: every transport reports each misbehaviour of a server as the same
/// ``TransportFailure/Kind``, so ``ErrorMessageProvider`` says the same sentence and
/// ``RetryPolicy`` takes the same decision whichever transport is underneath.
@Suite("Fault conformance", .timeLimit(.minutes(2)))
struct FaultConformanceTests {
  /// What each fault must be reported as.
  static let expectations: [(FaultServer.Fault, TransportFailure.Kind)] = [
    (.resetBeforeHead, .networkConnectionLost),
    (.closeBeforeHead, .networkConnectionLost),
    (.resetDuringBody, .networkConnectionLost),
    (.shortBody, .networkConnectionLost),
    (.garbageStatus, .badServerResponse),
    (.invalidHeader, .badServerResponse),
    (.invalidChunked, .badServerResponse),
  ]

  static let cases = TransportUnderTest.allCases.flatMap { kind in
    expectations.map { (kind, $0.0, $0.1) }
  }

  @Test(arguments: cases)
  func reportsEachFaultAsTheSameKind(
    _ kind: TransportUnderTest, fault: FaultServer.Fault, expected: TransportFailure.Kind
  ) async throws {
    let result = await exchange(
      TransportRequest(urlRequest: URLRequest(url: FaultServer.shared.url(fault.rawValue))),
      over: try kind.make())
    guard case .failure(let failure) = result else {
      Issue.record("expected a failure, got an answer")
      return
    }
    #expect(failure.kind == expected, "\(failure)")
  }

  @Test(arguments: cases)
  func reportsEachFaultAsTheSameKindWhenStreaming(
    _ kind: TransportUnderTest, fault: FaultServer.Fault, expected: TransportFailure.Kind
  ) async throws {
    let transport = try kind.make()
    let request = TransportRequest(
      urlRequest: URLRequest(url: FaultServer.shared.url(fault.rawValue)), idleTimeout: 20)
    let result = await withCheckedContinuation { continuation in
      _ = transport.startStreamingTransfer(request, receiver: EndReceiver(continuation))
    }
    guard case .failure(let failure) = result else {
      Issue.record("expected a failure, got the end of a stream")
      return
    }
    #expect(failure.kind == expected, "\(failure)")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func failsWhenTheBodyStallsForTheIdleTimeout(_ kind: TransportUnderTest) async throws {
    // The server stays silent until the client leaves, so only the idle timeout ends this.
    let result = await exchange(
      TransportRequest(
        urlRequest: URLRequest(
          url: FaultServer.shared.url(FaultServer.Fault.stallDuringBody.rawValue)),
        idleTimeout: 1),
      over: try kind.make())
    guard case .failure(let failure) = result else {
      Issue.record("expected an idle timeout, got an answer")
      return
    }
    #expect(failure.kind == .timedOut, "\(failure)")
  }

  @Test(
    arguments: TransportUnderTest.allCases.flatMap { kind in
      [FaultServer.Fault.garbageStatus, .invalidHeader, .invalidChunked].map { (kind, $0) }
    })
  func wordsABrokenAnswerAsTheServersProblem(
    _ kind: TransportUnderTest, fault: FaultServer.Fault
  ) async throws {
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection(kind).execute(FaultServer.FaultCall(fault: fault))
    }
    let failure = try #require(error)
    #expect(ErrorMessageProvider.category(of: failure) == .malformedResponse, "\(failure)")
    let text = try #require(ErrorMessageProvider.standard.message(for: failure)?.text)
    #expect(text == ErrorMessageProvider.standardWording[.malformedResponse]?.text)
    #expect(!text.localizedCaseInsensitiveContains("update the app"))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func retriesAGetWhoseBodyArrivedShort(_ kind: TransportUnderTest) async throws {
    let key = UUID().uuidString
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection(kind, retries: 2).execute(
        FaultServer.FaultCall(fault: .shortBody, key: key))
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .networkConnectionLost, "\(failure)")
    #expect(FaultServer.shared.hits(key: key) == 3)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func neverRetriesAPostWhoseAnswerArrivedShort(_ kind: TransportUnderTest) async throws {
    let key = UUID().uuidString
    var call = FaultServer.FaultCall(fault: .shortBody, key: key)
    call.method = .post
    call.body = .text("an order, not to be placed twice")
    await #expect(throws: ServerConnectionError.self) {
      try await connection(kind, retries: 2).execute(call)
    }
    #expect(FaultServer.shared.hits(key: key) == 1)
  }
}

/// Hears only how a streamed transfer ended.
private struct EndReceiver: TransferReceiver {
  let continuation: CheckedContinuation<Result<TransferMetrics, TransportFailure>, Never>

  init(_ continuation: CheckedContinuation<Result<TransferMetrics, TransportFailure>, Never>) {
    self.continuation = continuation
  }

  func transferDidReceiveHead(_ head: HTTPResponse) {}

  func transferDidReceiveBody(_ bytes: Data) -> TransferFlow { .proceed }

  func transferDidComplete(_ result: Result<TransferMetrics, TransportFailure>) {
    continuation.resume(returning: result)
  }
}

/// A connection to the fault server that retries at most `retries` times, without waiting long.
private func connection(_ kind: TransportUnderTest, retries: Int = 0) throws -> ServerConnection {
  var configuration = ServerConfiguration.local(port: FaultServer.shared.port)
  configuration.timeout = 20
  configuration.retryPolicy = RetryPolicy(maximumRetries: retries, baseDelay: 0.01, jitter: 0)
  return ServerConnection(configuration: configuration, transport: try kind.make())
}
