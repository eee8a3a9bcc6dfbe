import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An in-memory transport that answers from a closure or a ``StubRoutes`` table and records
/// what was sent.
///
/// Its answers travel the whole pipeline (adapters, signing, redirects, deadline, validation,
/// renewal, decoding) exactly as a server's would, so a stubbed 404 still fails validation.
/// A streamed request body (`TransportRequest.bodyStream`) is read whole before the stub
/// answers, as a server reading the whole request would; the recorded request holds its bytes
/// in `httpBody`.
///
/// ```swift
/// let transport = StubTransport { request in
///   .json(["id": 1], status: 200)
/// }
/// let connection = ServerConnection(configuration: .local(port: 8080), transport: transport)
/// ```
public final class StubTransport: HTTPTransport {
  /// What the stub does with one request; the same answers as ``StubAnswer``.
  public typealias Answer = StubAnswer

  private let log = Locked<[TransportRequest]>([])
  private let respond: @Sendable (StubRequest) -> StubAnswer
  private let clockBox = Locked<any ConvoyClock>(.system)

  /// The clock a ``StubAnswer/delayed(_:_:)`` answer waits on: real time unless set. Give it the
  /// `TestClock` of the connection, and a delayed answer arrives when the test advances the
  /// clock past its delay.
  public var clock: any ConvoyClock {
    get { clockBox.current }
    set { clockBox.withLock { $0 = newValue } }
  }

  /// Creates a stub that answers every request with `respond`.
  public init(respond: @escaping @Sendable (TransportRequest) -> Answer) {
    self.respond = { respond($0.transportRequest) }
  }

  /// Creates a stub that answers from `routes`; requests no route matches fail with the
  /// "no stub" `TransportFailure` that lists the routes.
  public init(routes: StubRoutes) {
    self.respond = { routes.answer(for: $0) }
  }

  /// Every request sent so far, in order.
  public var requests: [TransportRequest] {
    log.current
  }

  /// Decides the answer at once (so counters in closures move in call order), then delivers it
  /// on a background queue so that callers see real asynchrony; a stream gets the answer in
  /// pieces of at most 64 KiB, honouring its reader's pauses. A delayed answer that is cancelled
  /// ends at once.
  public nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    guard case .streamed = request.answerDelivery else {
      return try await CallbackTransfer.whole(request) { startTransfer(request, completion: $0) }
    }
    return try await CallbackTransfer.streamed(request) {
      startStreamingTransfer(request, receiver: $0)
    }
  }

  /// Starts `request`, answering `completion` once.
  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    if let body = request.bodyStream {
      // Read whole first, so the routes and ``requests`` see its bytes in `httpBody`.
      return StubUpload.start(request, body: body, completion: completion) { whole, done in
        self.startTransfer(whole, completion: done)
      }
    }
    log.withLock { $0.append(request) }
    let startDate = Date()
    let stubRequest = StubRequest(request)
    if let progress = request.uploadProgress, !stubRequest.body.isEmpty {
      // The whole body was taken at once, as a server reading it would.
      let sent = Int64(stubRequest.body.count)
      progress(TransferProgress(completedBytes: sent, totalBytes: sent))
    }
    let outcome = StubOutcome(respond(stubRequest), for: stubRequest)
    let delivery = StubDelivery(.receiverOutsideLock) { result in
      completion(
        result.map { reply in
          TransportResponse(
            head: reply.head(for: request.urlRequest.url), data: reply.body,
            metrics: TransferMetrics(
              startDate: startDate, duration: Date().timeIntervalSince(startDate),
              bytesReceived: reply.body.count, bytesSent: stubRequest.body.count))
        })
    }
    delivery.start(outcome, clock: clock)
    return StubTransfer(delivery: delivery)
  }
}

private struct StubTransfer: TransferHandle {
  let delivery: StubDelivery

  func cancel() {
    delivery.stop()?(.failure(TransportFailure(kind: .cancelled, detail: "cancelled")))
  }
}

extension StubTransport {
  /// Receives the whole answer, then hands it to `receiver` in pieces of at most 64 KiB,
  /// honouring its pauses, as a transport that streams would.
  func startStreamingTransfer(_ request: TransportRequest, receiver: any TransferReceiver)
    -> any StreamingTransferHandle
  {
    BufferedStreamingTransfer.replaying(to: receiver) { startTransfer(request, completion: $0) }
  }
}
