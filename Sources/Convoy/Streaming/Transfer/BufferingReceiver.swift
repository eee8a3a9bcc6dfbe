import Foundation

/// Collects a streamed transfer whole and hands it on as one ``TransportResponse``: a buffered
/// call on a transport that sees an answer's head only when it streams.
///
/// It is also how a buffered call hears of its upload's progress, which only the streaming side
/// of a transport reports.
///
/// FoundationNetworking tells a task with a completion handler nothing about a head whose body
/// then fails (`response` and `task.response` stay `nil`), so a broken framing there would pass
/// for a lost connection; its delegate hears of the head at once.
///
/// Given `limits`, it stops the transfer as soon as the body passes
/// ``ResponseLimits/maximumBodySize`` and reports ``TransportFailure/Kind/responseTooLarge``, so
/// an endless body costs no more than the limit on a transport that buffers this way.
final class BufferingReceiver: TransferReceiver, @unchecked Sendable {
  private let lock = Lock()
  private var head: HTTPResponse?
  private var body = Data()
  private var trailers = HTTPHeaders()
  /// Whether the completion ran (it runs once: an over-limit body settles it before the
  /// transfer's own end arrives).
  private var isSettled = false
  /// Stops the transfer; set once the transport handed out its handle.
  private var stop: (@Sendable () -> Void)?
  private var stopRequested = false
  private let limits: ResponseLimits?
  private let completion: @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  private let uploadProgress: (@Sendable (TransferProgress) -> Void)?

  init(
    limits: ResponseLimits? = nil, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) {
    self.limits = limits
    self.uploadProgress = uploadProgress
    self.completion = completion
  }

  /// Gives the receiver the transfer's handle, so that a body over the limit can stop it.
  func attach(_ handle: any TransferHandle) {
    let stopNow = lock.withLock { () -> Bool in
      stop = { handle.cancel() }
      return stopRequested
    }
    if stopNow { handle.cancel() }
  }

  func transferDidSendBody(_ progress: TransferProgress) {
    uploadProgress?(progress)
  }

  func transferDidReceiveHead(_ head: HTTPResponse) {
    lock.withLock { self.head = head }
  }

  func transferDidReceiveBody(_ bytes: Data) -> TransferFlow {
    let passedLimit = lock.withLock { () -> Bool in
      guard !isSettled else { return false }
      body.append(bytes)
      guard let limits, body.count > limits.maximumBodySize else { return false }
      isSettled = true
      body = Data()
      stopRequested = true
      return true
    }
    guard passedLimit, let limits else { return .proceed }
    completion(.failure(limits.failure("maximumBodySize", limits.maximumBodySize)))
    lock.withLock { stop }?()
    return .pause
  }

  func transferDidReceiveTrailers(_ trailers: HTTPHeaders) {
    lock.withLock { self.trailers = trailers }
  }

  func transferDidComplete(_ result: Result<TransferMetrics, TransportFailure>) {
    let settled = lock.withLock { () -> (HTTPResponse?, Data, HTTPHeaders)? in
      guard !isSettled else { return nil }
      isSettled = true
      defer { self.body = Data() }
      return (self.head, self.body, self.trailers)
    }
    guard let (head, body, trailers) = settled else { return }
    switch result {
    case .failure(let failure):
      completion(.failure(failure))
    case .success(let metrics):
      guard let head else {
        completion(
          .failure(TransportFailure(kind: .badServerResponse, detail: "the answer was not HTTP")))
        return
      }
      var response = TransportResponse(head: head, data: body, metrics: metrics)
      response.trailers = trailers
      completion(.success(response))
    }
  }
}
