import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One logical exchange over a transport, the only one Convoy has: the request, every redirect
/// hop the policy follows, and the whole call's deadline, which Convoy enforces itself since
/// FoundationNetworking ignores the resource timeout.
///
/// Every answer is a head and a body. A buffered call takes the body collected, within the
/// deadline; a stream takes it flowing, the exchange ends with the head and the deadline with
/// it (a stream may last for hours, and only the transport's idle limit bounds a silence).
///
/// The deadline is a timer armed once for all hops. When it fires, or the awaiting task is
/// cancelled, the exchange trips the ``TransferCancellation`` every hop's request carries, and
/// the transport ends its `send` at once: the exchange resolves exactly once.
final class Exchange: Sendable {
  enum ExchangeFailure: Error {
    case transport(TransportFailure, TransportRequest)
    case deadlinePassed(TransportRequest)
    case cancelled
  }

  /// How the answer's body is delivered.
  enum Delivery: Sendable {
    /// Collected whole within the deadline.
    case whole
    /// Collected whole within the deadline, telling `uploadProgress` how much of the request
    /// body went out.
    case wholeReportingUpload(@Sendable (TransferProgress) -> Void)
    /// Left flowing into a buffer of `bufferCapacity` bytes once the head is in; a download's
    /// buffer spills to disk what a transport that cannot pause sends past its limit.
    case streamed(bufferCapacity: Int, spillsToDisk: Bool)
  }

  /// The final hop's answer: the request it answers, the response (with an empty body for a
  /// stream) and, for a stream, the body still flowing.
  struct Answer: Sendable {
    var request: TransportRequest
    var response: TransportResponse
    var body: StreamBuffer?
  }

  private enum Ending {
    case deadline
    case cancelled
    /// A stream's head arrived in time: the deadline no longer applies to it.
    case settled
  }

  private struct State {
    var request: TransportRequest
    var ending: Ending?
  }

  private let transport: any HTTPTransport
  private let policy: RedirectPolicy
  private let delivery: Delivery
  private let state: Locked<State>
  /// Stops the hop in flight when the exchange ends early.
  private let cancellation = TransferCancellation()
  /// Counts the redirects followed, for the call's metrics.
  private let metrics: CallMetricsRecorder?

  private init(
    request: TransportRequest, transport: any HTTPTransport, policy: RedirectPolicy,
    delivery: Delivery, metrics: CallMetricsRecorder?
  ) {
    self.metrics = metrics
    self.transport = transport
    self.policy = policy
    self.delivery = delivery
    self.state = Locked(State(request: request))
  }

  /// Runs an exchange of `request` that must be over in `timeout` seconds of `clock`;
  /// cancelling the calling task cancels the transfer.
  nonisolated(nonsending) static func perform(
    _ request: TransportRequest, transport: any HTTPTransport, policy: RedirectPolicy,
    timeout: TimeInterval, clock: any ConvoyClock = .system, delivery: Delivery = .whole,
    metrics: CallMetricsRecorder? = nil
  ) async -> Result<Answer, ExchangeFailure> {
    let exchange = Exchange(
      request: request, transport: transport, policy: policy, delivery: delivery,
      metrics: metrics)
    let timer = clock.schedule(after: timeout) { exchange.end(.deadline) }
    defer {
      timer.cancel()
      exchange.cancellation.retire()
    }
    return await withTaskCancellationHandler {
      if Task.isCancelled { exchange.end(.cancelled) }
      return await exchange.run(exchange.prepared(request))
    } onCancel: {
      exchange.end(.cancelled)
    }
  }

  /// `request` as every hop sends it: with the exchange's cancellation and how its answer is
  /// read.
  private func prepared(_ request: TransportRequest) -> TransportRequest {
    var request = request
    request.cancellation = cancellation
    switch delivery {
    case .whole:
      request.answerDelivery = .whole
    case .wholeReportingUpload(let progress):
      request.answerDelivery = .whole
      request.uploadProgress = progress
    case .streamed(let capacity, let spillsToDisk):
      request.answerDelivery = .streamed(bufferSize: capacity, spillsToDisk: spillsToDisk)
    }
    return request
  }

  /// The redirect loop: one hop per request until the policy has no next one.
  nonisolated(nonsending) private func run(
    _ first: TransportRequest
  ) async -> Result<Answer, ExchangeFailure> {
    var request = first
    var hops = 0
    while true {
      let answer: Answer
      switch await send(request) {
      case .failure(let failure):
        return .failure(failure)
      case .success(let received):
        answer = received
      }
      do {
        guard
          let next = try policy.nextRequest(
            after: request, response: answer.response.head, hopsSoFar: hops)
        else { return settle(answer) }
        answer.body?.cancel()
        metrics?.redirected()
        request = next
        hops += 1
      } catch {
        answer.body?.cancel()
        return .failure(.transport(error, request))
      }
    }
  }

  /// One hop: the transfer of `request` until its answer is in (whole, or its head for a
  /// stream), or the exchange ended.
  ///
  /// Never inlined, for the size of `run`'s async frame, which is taken whole when `run` is
  /// entered and would otherwise hold this one's too.
  @inline(never)
  nonisolated(nonsending) private func send(
    _ request: TransportRequest
  ) async -> Result<Answer, ExchangeFailure> {
    state.withLock { $0.request = request }
    do {
      let answer = try await transport.send(request)
      guard case .streamed(let capacity, let spillsToDisk) = delivery else {
        let response: TransportResponse
        if let complete = answer.completeResponse {
          response = complete
        } else {
          response = try await answer.collected(within: request.responseLimits)
        }
        // A transport that can stop early already did; this holds every transport to the limits.
        if let violation = request.responseLimits.violation(by: response) {
          return .failure(.transport(violation, request))
        }
        return .success(Answer(request: request, response: response, body: nil))
      }
      let metrics = TransferMetrics(
        startDate: Date(), duration: 0, bytesReceived: 0, bytesSent: 0)
      return .success(
        Answer(
          request: request,
          response: TransportResponse(head: answer.head, data: Data(), metrics: metrics),
          body: StreamBuffer.reading(answer, capacity: capacity, spillsToDisk: spillsToDisk)))
    } catch {
      if isEnded || error.kind == .cancelled { return .failure(failure()) }
      return .failure(.transport(error, request))
    }
  }

  /// The final answer, unless the deadline or a cancellation came first: a stream's head that
  /// arrived a hair after the timer fired is already closed.
  private func settle(_ answer: Answer) -> Result<Answer, ExchangeFailure> {
    let ending = state.withLock { state -> Ending? in
      if state.ending == nil { state.ending = .settled }
      return state.ending
    }
    guard ending == .settled else {
      answer.body?.cancel()
      return .failure(failure())
    }
    return .success(answer)
  }

  private var isEnded: Bool { state.withLock { $0.ending != nil } }

  /// Ends the exchange for `reason` unless it already ended: the hop in flight is stopped and
  /// its transport's `send` returns at once.
  private func end(_ reason: Ending) {
    let isFirst = state.withLock { state -> Bool in
      guard state.ending == nil else { return false }
      state.ending = reason
      return true
    }
    if isFirst { cancellation.cancel() }
  }

  /// Why the exchange ended without an answer.
  private func failure() -> ExchangeFailure {
    let (ending, request) = state.withLock { ($0.ending, $0.request) }
    return ending == .deadline ? .deadlinePassed(request) : .cancelled
  }
}
