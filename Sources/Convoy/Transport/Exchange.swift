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
/// Upload progress is reported here and nowhere else, by the receiver that collects a body.
///
/// The deadline is a timer armed once for all hops: when it fires, the call ends at once,
/// whatever the transport is doing, and the transfer is cancelled behind it. Cancelling the
/// awaiting task ends the call the same way. Either way the exchange resolves exactly once.
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
    /// body went out (only the streaming side of a transport reports it).
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

  private enum Step<Value: Sendable>: Sendable {
    case arrived(Value)
    case ended
  }

  private struct State {
    var request: TransportRequest
    var ending: Ending?
    /// Ends the hop being awaited, when something other than the transport ends the exchange.
    var interrupt: (@Sendable () -> Void)?
    /// Stops the current hop's transfer.
    var stop: (@Sendable () -> Void)?
  }

  private let transport: any HTTPTransport
  private let policy: RedirectPolicy
  private let delivery: Delivery
  private let state: Locked<State>
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
    defer { timer.cancel() }
    return await withTaskCancellationHandler {
      if Task.isCancelled { exchange.end(.cancelled) }
      return await exchange.run(request)
    } onCancel: {
      exchange.end(.cancelled)
    }
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
  nonisolated(nonsending) private func send(
    _ request: TransportRequest
  ) async -> Result<Answer, ExchangeFailure> {
    state.withLock { $0.request = request }
    switch delivery {
    case .whole:
      let step = await hop { deliver in
        let handle = transport.startTransfer(request, completion: deliver)
        return { handle.cancel() }
      }
      return whole(step, for: request)
    case .wholeReportingUpload(let progress):
      let step = await hop { deliver in
        let receiver = BufferingReceiver(uploadProgress: progress, completion: deliver)
        let handle = transport.startStreamingTransfer(request, receiver: receiver)
        return { handle.cancel() }
      }
      return whole(step, for: request)
    case .streamed(let capacity, let spillsToDisk):
      return await sendStreamed(request, capacity: capacity, spillsToDisk: spillsToDisk)
    }
  }

  /// A streamed attempt: the answer as soon as its head arrived, its body still coming.
  ///
  /// A function of its own, and `hop` is never inlined, for the size of `send`'s async frame,
  /// which is taken whole when `send` is entered: with both inlined it was 8.5 KB, allocated for
  /// every attempt (a task's allocator takes a block of its own for a frame that large).
  @inline(never)
  nonisolated(nonsending) private func sendStreamed(
    _ request: TransportRequest, capacity: Int, spillsToDisk: Bool
  ) async -> Result<Answer, ExchangeFailure> {
    // Stopping the buffer hands its reader a failure at once, so the head is awaited without
    // an interruption of its own.
    let body = StreamBuffer(capacity: capacity, spillsToDisk: spillsToDisk)
    guard attach({ body.cancel() }) else { return .failure(failure()) }
    body.start(request, on: transport)
    switch await body.head() {
    case .failure(let failure):
      if isEnded || failure.kind == .cancelled { return .failure(self.failure()) }
      return .failure(.transport(failure, request))
    case .success(let head):
      let metrics = TransferMetrics(
        startDate: Date(), duration: 0, bytesReceived: 0, bytesSent: 0)
      return .success(
        Answer(
          request: request,
          response: TransportResponse(head: head, data: Data(), metrics: metrics), body: body))
    }
  }

  private func whole(
    _ step: Step<Result<TransportResponse, TransportFailure>>, for request: TransportRequest
  ) -> Result<Answer, ExchangeFailure> {
    switch step {
    case .ended:
      return .failure(failure())
    case .arrived(.failure(let failure)):
      return .failure(.transport(failure, request))
    case .arrived(.success(let response)):
      // A transport that can stop early already did; this holds every transport to the limits.
      if let violation = request.responseLimits.violation(by: response) {
        return .failure(.transport(violation, request))
      }
      return .success(Answer(request: request, response: response, body: nil))
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

  /// Waits for what `begin` delivers, or for the exchange to end first. `begin` starts the
  /// transfer and returns what stops it.
  @inline(never)
  nonisolated(nonsending) private func hop<Value: Sendable>(
    _ begin: (@escaping @Sendable (Value) -> Void) -> @Sendable () -> Void
  ) async -> Step<Value> {
    await withCheckedContinuation { continuation in
      let once = ResumeOnce(continuation)
      let endedAlready = state.withLock { state -> Bool in
        guard state.ending == nil else { return true }
        state.interrupt = { once.resume(returning: .ended) }
        return false
      }
      if endedAlready {
        once.resume(returning: .ended)
        return
      }
      if !attach(begin { once.resume(returning: .arrived($0)) }) {
        once.resume(returning: .ended)
      }
    }
  }

  /// Keeps what stops the current transfer; stops it at once and returns `false` when the
  /// exchange already ended.
  private func attach(_ stop: @escaping @Sendable () -> Void) -> Bool {
    let endedAlready = state.withLock { state -> Bool in
      guard state.ending == nil else { return true }
      state.stop = stop
      return false
    }
    if endedAlready { stop() }
    return !endedAlready
  }

  private var isEnded: Bool { state.withLock { $0.ending != nil } }

  /// Ends the exchange for `reason` unless it already ended: the awaited hop returns at once
  /// and its transfer is stopped.
  private func end(_ reason: Ending) {
    let (interrupt, stop) = state.withLock {
      state -> ((@Sendable () -> Void)?, (@Sendable () -> Void)?) in
      guard state.ending == nil else { return (nil, nil) }
      state.ending = reason
      defer { (state.interrupt, state.stop) = (nil, nil) }
      return (state.interrupt, state.stop)
    }
    interrupt?()
    stop?()
  }

  /// Why the exchange ended without an answer.
  private func failure() -> ExchangeFailure {
    let (ending, request) = state.withLock { ($0.ending, $0.request) }
    return ending == .deadline ? .deadlinePassed(request) : .cancelled
  }
}

/// A continuation resumed by whichever of several parties comes first; later calls do nothing.
private final class ResumeOnce<Value: Sendable>: Sendable {
  private let continuation: Locked<CheckedContinuation<Value, Never>?>

  init(_ continuation: CheckedContinuation<Value, Never>) {
    self.continuation = Locked(continuation)
  }

  func resume(returning value: Value) {
    let taken = continuation.withLock { current in
      defer { current = nil }
      return current
    }
    taken?.resume(returning: value)
  }
}
