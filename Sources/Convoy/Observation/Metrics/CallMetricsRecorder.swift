import Foundation

/// Collects one call's ``CallMetrics`` as the call travels the road: the operation that holds
/// the network slot starts it and marks the slot's arrival, the pipeline counts attempts and
/// keeps each answer's transfer, the exchange counts redirects.
///
/// The operation hands it to the pipeline as a value (`CallPipeline.metrics`), not as a
/// task-local: binding a task-local around each call would add its cost to every call. A pipeline
/// without one (a token renewal's) makes its own, so a call inside a call keeps its own metrics.
final class CallMetricsRecorder: @unchecked Sendable {
  private struct State {
    var enqueued: Date?
    var started: Date
    var attempts = 0
    var redirects = 0
    var transfers: [TransferMetrics] = []
    var isClaimed = false
  }

  // `_state` is only touched through `withState`, under the lock.
  private let lock = Lock()
  private var _state: State

  init(now: Date = Date()) {
    _state = State(started: now)
  }

  private func withState<Result>(_ body: (inout State) -> Result) -> Result {
    lock.withLock { body(&_state) }
  }

  /// This recorder, for the first call that asks; `nil` for a later call on the same pipeline (a
  /// stream's reconnection), which gets a recorder of its own.
  func claim() -> CallMetricsRecorder? {
    withState { state in
      defer { state.isClaimed = true }
      return state.isClaimed ? nil : self
    }
  }

  /// The call joined the queue for a network slot.
  func enqueued(now: Date = Date()) {
    withState { $0.enqueued = now }
  }

  /// The call got its slot: the wait ends and the call's own clock starts.
  func slotAcquired(now: Date = Date()) {
    withState { $0.started = now }
  }

  /// Runs `work` as the call this recorder measures, starting its clock now.
  nonisolated(nonsending) func measuring<Output>(
    _ work: nonisolated(nonsending) () async -> Output
  ) async -> Output {
    slotAcquired()
    return await work()
  }

  /// An attempt is about to be sent.
  func attemptStarted() {
    withState { $0.attempts += 1 }
  }

  /// The exchange follows a redirect.
  func redirected() {
    withState { $0.redirects += 1 }
  }

  /// Keeps an answer's `transfer` and puts the call's metrics so far on its `head`, where the
  /// value made from it finds them. In place: an answer is costly to copy.
  func stamp(_ head: inout HTTPResponse, transfer: TransferMetrics) {
    withState { $0.transfers.append(transfer) }
    head.metrics = snapshot()
  }

  /// A streamed answer's body ended: its transfer's final metrics replace those its head had.
  func bodyEnded(_ transfer: TransferMetrics) {
    withState { state in
      guard !state.transfers.isEmpty else { return }
      var final = transfer
      final.cacheOutcome = state.transfers[state.transfers.count - 1].cacheOutcome
      state.transfers[state.transfers.count - 1] = final
    }
  }

  /// The metrics as they stand now.
  func snapshot(now: Date = Date()) -> CallMetrics {
    withState { state in
      CallMetrics(
        attempts: state.attempts, redirects: state.redirects,
        queuedDuration: state.enqueued.map { max(0, state.started.timeIntervalSince($0)) } ?? 0,
        duration: max(0, now.timeIntervalSince(state.started)), transfers: state.transfers)
    }
  }
}
