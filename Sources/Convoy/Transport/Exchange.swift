import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One logical exchange over a transport: the request, every redirect hop the policy follows,
/// and a deadline Convoy enforces itself, since FoundationNetworking ignores the resource timeout.
///
/// It completes exactly once, whichever of answer, failure, deadline or cancellation comes first.
final class Exchange: @unchecked Sendable {
  typealias Completion = @Sendable (Result<TransportResponse, ExchangeFailure>) -> Void

  enum ExchangeFailure: Error {
    case transport(TransportFailure, TransportRequest)
    case deadlinePassed(TransportRequest)
    case cancelled
  }

  private let transport: any HTTPTransport
  private let policy: RedirectPolicy
  private let lock = NSLock()
  private var completion: Completion?
  private var currentHandle: (any TransferHandle)?
  private var currentRequest: TransportRequest
  private var deadlineTimer: ClockTimer?
  private let clock: any ConvoyClock
  /// Counts the redirects followed, for the call's metrics.
  private let metrics: CallMetricsRecorder?

  init(
    request: TransportRequest, transport: any HTTPTransport, policy: RedirectPolicy,
    clock: any ConvoyClock = .system, metrics: CallMetricsRecorder? = nil,
    completion: @escaping Completion
  ) {
    self.metrics = metrics
    self.clock = clock
    self.transport = transport
    self.policy = policy
    self.currentRequest = request
    self.completion = completion
  }

  /// Sends the request; the exchange fails with `.deadlinePassed` if it is not over in `timeout`.
  func start(timeout: TimeInterval) {
    let timer = clock.schedule(after: timeout) { [weak self] in self?.expire() }
    lock.withLock { deadlineTimer = timer }
    send(currentRequest, hops: 0)
  }

  /// Stops the exchange; the completion reports `.cancelled` unless it already ran.
  func cancel() {
    let handle = lock.withLock { currentHandle }
    finish(.failure(.cancelled))
    handle?.cancel()
  }

  private func send(_ request: TransportRequest, hops: Int) {
    let isOver = lock.withLock {
      currentRequest = request
      return completion == nil
    }
    guard !isOver else { return }
    let handle = transport.startTransfer(request) { [self] result in
      receive(result, for: request, hops: hops)
    }
    let cancelledMeanwhile = lock.withLock {
      currentHandle = handle
      return completion == nil
    }
    if cancelledMeanwhile { handle.cancel() }
  }

  private func receive(
    _ result: Result<TransportResponse, TransportFailure>, for request: TransportRequest, hops: Int
  ) {
    switch result {
    case .failure(let failure):
      finish(.failure(.transport(failure, request)))
    case .success(let response):
      // A transport that can stop early already did; this holds every transport to the limits.
      if let violation = request.responseLimits.violation(by: response) {
        finish(.failure(.transport(violation, request)))
        return
      }
      do {
        if let next = try policy.nextRequest(
          after: request, response: response.head, hopsSoFar: hops)
        {
          metrics?.redirected()
          send(next, hops: hops + 1)
        } else {
          finish(.success(response))
        }
      } catch {
        finish(.failure(.transport(error, request)))
      }
    }
  }

  private func expire() {
    let (handle, request) = lock.withLock { (currentHandle, currentRequest) }
    finish(.failure(.deadlinePassed(request)))
    handle?.cancel()
  }

  private func finish(_ result: Result<TransportResponse, ExchangeFailure>) {
    let (completion, timer) = lock.withLock {
      defer {
        self.completion = nil
        self.deadlineTimer = nil
      }
      return (self.completion, deadlineTimer)
    }
    timer?.cancel()
    completion?(result)
  }
}

extension Exchange {
  /// Runs an exchange as an `async` call; cancelling the task cancels the transfer.
  static func perform(
    _ request: TransportRequest, transport: any HTTPTransport, policy: RedirectPolicy,
    timeout: TimeInterval, clock: any ConvoyClock = .system, metrics: CallMetricsRecorder? = nil
  ) async -> Result<TransportResponse, ExchangeFailure> {
    let box = Locked<Exchange?>(nil)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let exchange = Exchange(
          request: request, transport: transport, policy: policy, clock: clock, metrics: metrics
        ) {
          continuation.resume(returning: $0)
        }
        box.withLock { $0 = exchange }
        exchange.start(timeout: timeout)
        if Task.isCancelled { exchange.cancel() }
      }
    } onCancel: {
      box.withLock { $0 }?.cancel()
    }
  }
}
