import Convoy
import Dispatch
import Foundation

/// One streamed answer of the simulator, delivered over time on its own serial queue: the head,
/// then the body's pieces as its steps say, pausing while the receiver asks it to.
///
/// Memory stays bounded by one piece: the body makes each piece when it is due. Every call to
/// the receiver happens on the queue, so two never overlap; `cancel()` stops further pieces at
/// once and reports the cancellation from the queue too. The head's delay and the body's pace
/// are waits on the simulator's clock, so a test with a `TestClock` decides when they pass.
package final class SimulatedStreamingTransfer: StreamingTransferHandle, @unchecked Sendable {
  private let receiver: any TransferReceiver
  private let queue = DispatchQueue(label: "convoy.simulated-transfer")
  private let url: URL?
  private let clock: any ConvoyClock
  private let startDate: Date
  private let lock = Lock()
  // Guarded by `lock`.
  private var isOver = false
  private var isPaused = false
  /// Whether a step is queued or waiting on a timer, so a resume never starts a second one.
  private var isStepPending = false
  /// Whether the queue is running steps, during which a resume is left to the running loop.
  private var isDelivering = false
  private var isResumeRequested = false
  /// The clock's wait for the next step, dropped on cancel so that nothing is left scheduled.
  private var pendingWait: ClockTimer?
  // Only touched on `queue`.
  private var body: (any SimulatedBody)?
  private var bytesReceived = 0

  init(receiver: any TransferReceiver, url: URL?, clock: any ConvoyClock) {
    self.receiver = receiver
    self.url = url
    self.clock = clock
    startDate = clock.now
  }

  /// Returns once everything the transfer's queue was given so far has run: for tests, which
  /// then know that no piece is on its way (a wait on the clock is not: advance it first).
  package func settle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async { continuation.resume() }
    }
  }

  /// Runs `action` on the queue once `seconds` have passed on the clock. The clock's action
  /// only hops to the queue, since a test clock runs it inside `advance`.
  private func afterWait(_ seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
    let timer = clock.schedule(after: seconds) { [queue] in queue.async(execute: action) }
    lock.withLock { pendingWait = timer }
  }

  /// Starts delivering `answer`.
  func start(_ answer: SimulatedStreamAnswer) {
    lock.withLock { isStepPending = true }
    // On the system clock (demos, `--simulate`) a slow head and a paced body take real seconds.
    afterWait(answer.headDelay) { [self] in
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

  package func resumeReceiving() {
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

  package func cancel() {
    let (wasOver, wait) = lock.withLock {
      defer {
        isOver = true
        pendingWait = nil
      }
      return (isOver, pendingWait)
    }
    wait?.cancel()
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
        afterWait(seconds) { [self] in
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
              startDate: startDate, duration: clock.now.timeIntervalSince(startDate),
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
