import Convoy
import Dispatch
import Foundation

/// One streamed answer of the simulator, delivered over time on its own serial queue: the head,
/// then the body's pieces as its steps say, pausing while the receiver asks it to.
///
/// Memory stays bounded by one piece: the body makes each piece when it is due. Every call to
/// the receiver happens on the queue, so two never overlap; `cancel()` stops further pieces at
/// once and reports the cancellation from the queue too.
final class SimulatedStreamingTransfer: StreamingTransferHandle, @unchecked Sendable {
  private let receiver: any TransferReceiver
  private let queue = DispatchQueue(label: "convoy.simulated-transfer")
  private let url: URL?
  private let startDate = Date()
  private let lock = NSLock()
  // Guarded by `lock`.
  private var isOver = false
  private var isPaused = false
  /// Whether a step is queued or waiting on a timer, so a resume never starts a second one.
  private var isStepPending = false
  /// Whether the queue is running steps, during which a resume is left to the running loop.
  private var isDelivering = false
  private var isResumeRequested = false
  // Only touched on `queue`.
  private var body: (any SimulatedBody)?
  private var bytesReceived = 0

  init(receiver: any TransferReceiver, url: URL?) {
    self.receiver = receiver
    self.url = url
  }

  /// Starts delivering `answer`.
  func start(_ answer: SimulatedStreamAnswer) {
    lock.withLock { isStepPending = true }
    // Real time on purpose: the simulator stands in for a server in demos (`--simulate`), whose
    // slow head and paced body take real seconds. Not a wait of a test.
    queue.asyncAfter(deadline: .now() + answer.headDelay) { [self] in
      lock.withLock { isStepPending = false }
      guard !isFinished else { return }
      switch answer.result {
      case .failure(let failure):
        complete(.failure(failure))
      case .success(let head):
        receiver.transferDidReceiveHead(
          HTTPResponse(statusCode: head.status, url: url, headers: head.headers))
        body = answer.makeBody()
        step()
      }
    }
  }

  func resumeReceiving() {
    let shouldStep = lock.withLock { () -> Bool in
      if isDelivering {
        isResumeRequested = true
        return false
      }
      guard isPaused, !isOver, !isStepPending else { return false }
      isPaused = false
      isStepPending = true
      return true
    }
    guard shouldStep else { return }
    queue.async { [self] in
      lock.withLock { isStepPending = false }
      step()
    }
  }

  func cancel() {
    let wasOver = lock.withLock {
      defer { isOver = true }
      return isOver
    }
    guard !wasOver else { return }
    queue.async { [self] in
      body = nil
      receiver.transferDidComplete(
        .failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
    }
  }

  private var isFinished: Bool { lock.withLock { isOver } }

  /// Runs the body's steps until it waits, pauses or ends; on `queue` only.
  private func step() {
    lock.withLock {
      isDelivering = true
      isResumeRequested = false
    }
    defer { lock.withLock { isDelivering = false } }
    while let body, !isFinished {
      switch body.nextStep() {
      case .send(let piece):
        bytesReceived += piece.count
        if receiver.transferDidReceiveBody(piece) == .pause {
          // A resume that came while the receiver held the piece found `isDelivering` set.
          let stop = lock.withLock { () -> Bool in
            defer { isResumeRequested = false }
            isPaused = !isResumeRequested
            if isPaused { isDelivering = false }
            return isPaused
          }
          if stop { return }
        }
      case .wait(let seconds):
        lock.withLock { isStepPending = true }
        // Real time on purpose, like the head delay above: the pace of a simulated server.
        queue.asyncAfter(deadline: .now() + seconds) { [self] in
          let paused = lock.withLock {
            isStepPending = false
            return isPaused
          }
          if !paused { step() }
        }
        return
      case .end:
        complete(
          .success(
            TransferMetrics(
              startDate: startDate, duration: Date().timeIntervalSince(startDate),
              bytesReceived: bytesReceived, bytesSent: 0)))
      case .drop:
        complete(
          .failure(
            TransportFailure(
              kind: .networkConnectionLost, detail: "simulated: the server dropped the connection")
          ))
      }
    }
  }

  /// Reports the end unless a cancellation already claimed it; on `queue` only.
  private func complete(_ result: Result<TransferMetrics, TransportFailure>) {
    let claimed = lock.withLock {
      defer { isOver = true }
      return !isOver
    }
    body = nil
    if claimed { receiver.transferDidComplete(result) }
  }
}
