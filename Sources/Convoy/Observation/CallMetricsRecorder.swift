import Foundation

/// Collects one call's ``CallMetrics`` as the call travels the road: the operation that holds
/// the network slot starts it and marks the slot's arrival, the pipeline counts attempts and
/// keeps each answer's transfer, the exchange counts redirects.
///
/// The pieces of the road reach it without new parameters: the operation binds it as the
/// task-local ``current`` while the call runs, and the call's ``EventEmitter`` claims it. A call
/// made inside another call (a token renewal inside a signed call) finds it claimed and gets a
/// recorder of its own.
final class CallMetricsRecorder: Sendable {
  /// The recorder of the call running in this task, if an operation started one.
  @TaskLocal static var current: CallMetricsRecorder?

  private struct State {
    var enqueued: Date?
    var started: Date
    var attempts = 0
    var redirects = 0
    var transfers: [TransferMetrics] = []
    var isClaimed = false
  }

  private let state: Locked<State>

  init(now: Date = Date()) {
    state = Locked(State(started: now))
  }

  /// The recorder for a call beginning in this task: the operation's, the first time it is asked
  /// for, or a new one.
  static func claim() -> CallMetricsRecorder {
    if let current,
      current.state.withLock({ state in
        defer { state.isClaimed = true }
        return !state.isClaimed
      })
    {
      return current
    }
    return CallMetricsRecorder()
  }

  /// The call joined the queue for a network slot.
  func enqueued(now: Date = Date()) {
    state.withLock { $0.enqueued = now }
  }

  /// The call got its slot: the wait ends and the call's own clock starts.
  func slotAcquired(now: Date = Date()) {
    state.withLock { $0.started = now }
  }

  /// Runs `work` as the call this recorder measures, starting its clock now.
  func measuring<Output>(_ work: () async -> Output) async -> Output {
    slotAcquired()
    return await Self.$current.withValue(self) { await work() }
  }

  /// An attempt is about to be sent.
  func attemptStarted() {
    state.withLock { $0.attempts += 1 }
  }

  /// The exchange follows a redirect.
  func redirected() {
    state.withLock { $0.redirects += 1 }
  }

  /// Keeps an answer's `transfer` and returns its `head` with the call's metrics so far, where
  /// the value made from it finds them.
  func answered(_ transfer: TransferMetrics, head: HTTPResponse) -> HTTPResponse {
    state.withLock { $0.transfers.append(transfer) }
    var stamped = head
    stamped.metrics = snapshot()
    return stamped
  }

  /// A streamed answer's body ended: its transfer's final metrics replace those its head had.
  func bodyEnded(_ transfer: TransferMetrics) {
    state.withLock { state in
      guard !state.transfers.isEmpty else { return }
      var final = transfer
      final.cacheOutcome = state.transfers[state.transfers.count - 1].cacheOutcome
      state.transfers[state.transfers.count - 1] = final
    }
  }

  /// The metrics as they stand now.
  func snapshot(now: Date = Date()) -> CallMetrics {
    state.withLock { state in
      CallMetrics(
        attempts: state.attempts, redirects: state.redirects,
        queuedDuration: state.enqueued.map { max(0, state.started.timeIntervalSince($0)) } ?? 0,
        duration: max(0, now.timeIntervalSince(state.started)), transfers: state.transfers)
    }
  }
}
