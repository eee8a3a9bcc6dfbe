import Convoy
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The one road a stubbed answer travels, whether a StubTransport or a StubURLProtocol asked:
// run the closures, add up the delays, then deliver once unless stopped first.

extension StubAnswer {
  /// The answer with every closure run for `request`: only responses, failures and delays
  /// remain. Closures run when the request arrives, not after a delay around them.
  func runningClosures(for request: StubRequest) -> StubAnswer {
    switch self {
    case .closure(let respond): respond(request).runningClosures(for: request)
    case .delayed(let seconds, let next): .delayed(seconds, next.runningClosures(for: request))
    case .response, .failure: self
    }
  }
}

/// The status, headers and body a stub answers with.
struct StubReply: Sendable {
  var status: Int
  var headers: HTTPHeaders
  var body: Data

  /// The head a transport hands on; a request without a URL gets a placeholder, as a server
  /// that answered always has one.
  func head(for url: URL?) -> HTTPResponse {
    HTTPResponse(statusCode: status, url: url ?? Self.placeholderURL, headers: headers)
  }

  /// The head as a `URLProtocol` client takes it.
  func httpURLResponse(for url: URL?) -> HTTPURLResponse {
    head(for: url).httpURLResponse
  }

  private static let placeholderURL = URL(string: "http://stub.invalid/")!
}

/// A settled answer: how long to wait, then what to deliver.
struct StubOutcome: Sendable {
  var delay: TimeInterval = 0
  var result: Result<StubReply, TransportFailure>

  init(_ answer: StubAnswer, for request: StubRequest) {
    var answer = answer.runningClosures(for: request)
    var delay: TimeInterval = 0
    while case .delayed(let seconds, let next) = answer {
      delay += max(0, seconds)
      answer = next
    }
    self.delay = delay
    switch answer {
    case .response(let status, let headers, let body):
      result = .success(StubReply(status: status, headers: headers, body: body))
    case .failure(let failure):
      result = .failure(failure)
    case .delayed, .closure:
      preconditionFailure("runningClosures and the loop above leave neither")
    }
  }
}

/// Delivers one outcome after its delay, exactly once, unless stopped first.
final class StubDelivery: @unchecked Sendable {
  typealias Receiver = @Sendable (Result<StubReply, TransportFailure>) -> Void

  /// How a delivery and a stop exclude each other.
  enum Exclusion {
    /// The receiver runs outside the lock: a stop never waits for a delivery in progress. A
    /// transport's completion resumes a task's continuation, which takes the task's own lock,
    /// while cancelling that task holds the task's lock and stops the delivery: a receiver run
    /// under this lock would deadlock the two.
    case receiverOutsideLock
    /// The receiver runs while the lock is held, so `stop()` returns only once a delivery in
    /// progress is over: a `URLProtocol` must not call its client after `stopLoading`
    /// (FoundationNetworking crashes). The lock is recursive because a receiver may stop its
    /// own delivery.
    case stopWaitsForDelivery
  }

  private let lock = NSRecursiveLock()
  private let exclusion: Exclusion
  private var receiver: Receiver?
  /// The wait for a delayed answer, dropped when the delivery stops, so that a test clock no
  /// longer counts it among its pending wake-ups.
  private let timer = Locked<ClockTimer?>(nil)

  init(_ exclusion: Exclusion, receiver: @escaping Receiver) {
    self.exclusion = exclusion
    self.receiver = receiver
  }

  /// Delivers `outcome` on a global queue once its delay has passed on `clock`.
  func start(_ outcome: StubOutcome, clock: any ConvoyClock = .system) {
    let deliver: @Sendable () -> Void = { [self] in self.deliver(outcome.result) }
    if outcome.delay > 0 {
      // The clock's action must not block (a test clock runs it inside `advance`): hop.
      let scheduled = clock.schedule(after: outcome.delay) {
        DispatchQueue.global().async(execute: deliver)
      }
      timer.withLock { $0 = scheduled }
    } else {
      DispatchQueue.global().async(execute: deliver)
    }
  }

  /// Stops the delivery; with ``Exclusion/stopWaitsForDelivery``, waits for one in progress.
  ///
  /// - Returns: The receiver when it had not run yet, so the caller can report the stop.
  @discardableResult
  func stop() -> Receiver? {
    timer.withLock { $0 }?.cancel()
    lock.lock()
    defer { lock.unlock() }
    defer { receiver = nil }
    return receiver
  }

  private func deliver(_ result: Result<StubReply, TransportFailure>) {
    lock.lock()
    let receiver = self.receiver
    self.receiver = nil
    guard exclusion == .stopWaitsForDelivery else {
      lock.unlock()
      receiver?(result)
      return
    }
    defer { lock.unlock() }
    receiver?(result)
  }
}
