import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One streamed transfer on a `URLSession` task whose events the session's delegate forwards.
///
/// A receiver that pauses suspends the task; resuming resumes it. Delegate events come one at a
/// time (on FoundationNetworking, on the session's work queue itself: ``InlineDelegateQueue``),
/// so the receiver hears of the head, the body and the end in order.
final class URLSessionStreamingTask: StreamingTransferHandle, @unchecked Sendable {
  private let receiver: any TransferReceiver
  private let startDate = Date()
  private let bytesSent: Int
  private let lock = Lock()
  private var task: URLSessionTask?
  private var isOver = false
  private var isPaused = false
  private var isHeadDelivered = false
  private var bytesReceived = 0
  #if !canImport(FoundationNetworking)
    /// The task's metrics, which the session delivers just before the task completes.
    private var taskMetrics: URLSessionTaskMetrics?
  #endif

  init(receiver: any TransferReceiver, bytesSent: Int) {
    self.receiver = receiver
    self.bytesSent = bytesSent
  }

  func start(_ task: URLSessionTask) {
    let cancelledEarly = lock.withLock {
      self.task = task
      return isOver
    }
    if cancelledEarly { task.cancel() }
    task.resume()
  }

  func cancel() {
    let task = lock.withLock { () -> URLSessionTask?? in
      guard !isOver else { return nil }
      isOver = true
      return .some(self.task)
    }
    guard let task else { return }
    // A task not started yet is cancelled by `start`.
    if let task {
      #if canImport(FoundationNetworking) && os(Linux)
        // From inside a delegate event the cancel waits for the work queue, which libcurl's
        // read loop holds as long as data comes: pausing the transfer ends the loop now.
        FoundationTransferPause.pause(task)
      #endif
      URLSessionTransport.callSession { task.cancel() }
    }
    // Reported at once and off the caller's thread, as curl does: a suspended task might not
    // report its cancellation until it is resumed.
    DispatchQueue.global().async { [receiver] in
      receiver.transferDidComplete(
        .failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
    }
  }

  func resumeReceiving() {
    let task = lock.withLock { () -> URLSessionTask? in
      guard isPaused, !isOver else { return nil }
      isPaused = false
      return self.task
    }
    if let task { URLSessionTransport.callSession { task.resume() } }
  }

  // MARK: - Delegate events (one at a time, in order)

  /// - Returns: Whether the task may go on; `false` for a head whose framing is broken, which
  ///   has ended the transfer as a malformed answer.
  func didReceive(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else { return true }
    if let problem = URLSessionTransport.framingProblem(of: http) {
      didFail(TransportFailure(kind: .badServerResponse, detail: problem))
      return false
    }
    deliverHead(http)
    return true
  }

  func didReceive(_ data: Data) {
    let proceed = lock.withLock { () -> Bool in
      bytesReceived += data.count
      return !isOver
    }
    guard proceed, receiver.transferDidReceiveBody(data) == .pause else { return }
    #if canImport(FoundationNetworking)
      // FoundationNetworking cannot pause a transfer: suspending a running task takes its libcurl
      // handle out of the multi handle, and resuming starts the transfer again. The receiver
      // keeps accepting bytes and bounds its memory itself (``TransportFailure/Kind/readerTooSlow``).
    #else
      let task = lock.withLock { () -> URLSessionTask? in
        guard !isOver else { return nil }
        isPaused = true
        return self.task
      }
      task?.suspend()
    #endif
  }

  func didSend(_ sent: Int64, of total: Int64) {
    guard !lock.withLock({ isOver }) else { return }
    receiver.transferDidSendBody(
      TransferProgress(completedBytes: sent, totalBytes: total > 0 ? total : nil))
  }

  func didComplete(error: (any Error)?, response: URLResponse?) {
    let received = lock.withLock { () -> Int? in
      guard !isOver else { return nil }
      isOver = true
      return bytesReceived
    }
    guard let received else { return }
    let http = response as? HTTPURLResponse
    // A refused authentication challenge ends the task with -999 while `response` holds the 401:
    // that is the answer, as in the buffered transport.
    if let http, error == nil || (error as? URLError)?.code == .cancelled {
      deliverHead(http)
      var metrics = TransferMetrics(
        startDate: startDate, duration: Date().timeIntervalSince(startDate),
        bytesReceived: received, bytesSent: bytesSent)
      #if !canImport(FoundationNetworking)
        if let taskMetrics = lock.withLock({ self.taskMetrics }) {
          metrics.fill(from: taskMetrics)
        }
      #endif
      receiver.transferDidComplete(.success(metrics))
      return
    }
    receiver.transferDidComplete(.failure(URLSessionTransport.failure(for: error)))
  }

  #if !canImport(FoundationNetworking)
    func didCollect(_ metrics: URLSessionTaskMetrics) {
      lock.withLock { taskMetrics = metrics }
    }
  #endif

  /// Ends the transfer with a failure the session's task cannot express (a refused server trust).
  func didFail(_ failure: TransportFailure) {
    let isFirst = lock.withLock { () -> Bool in
      defer { isOver = true }
      return !isOver
    }
    guard isFirst else { return }
    receiver.transferDidComplete(.failure(failure))
  }

  private func deliverHead(_ http: HTTPURLResponse) {
    let isFirst = lock.withLock { () -> Bool in
      defer { isHeadDelivered = true }
      return !isHeadDelivered && !isOver
    }
    guard isFirst else { return }
    receiver.transferDidReceiveHead(HTTPResponse(http))
  }
}

/// The streaming tasks of one session, by task identifier, for its delegate.
final class URLSessionStreamingTasks: Sendable {
  private let tasks = Locked<[Int: URLSessionStreamingTask]>([:])

  func add(_ task: URLSessionStreamingTask, for identifier: Int) {
    tasks.withLock { $0[identifier] = task }
  }

  subscript(identifier: Int) -> URLSessionStreamingTask? {
    tasks.withLock { $0[identifier] }
  }

  func remove(_ identifier: Int) -> URLSessionStreamingTask? {
    tasks.withLock { $0.removeValue(forKey: identifier) }
  }
}
