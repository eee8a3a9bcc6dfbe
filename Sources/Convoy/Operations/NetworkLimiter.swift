import Foundation

/// A connection's network limit: one count of the calls, streams and downloads in flight,
/// whoever started them, and a queue of those waiting for a slot, served in order.
///
/// It holds no thread. A caller that finds a free slot takes it at once, in its own task or on
/// its own thread; one that finds none leaves a waiter that the next released slot is handed
/// to. A waiter withdrawn before its turn (its call was cancelled) is told `false` at once and
/// never gets a slot.
final class NetworkLimiter: Sendable {
  /// How many slots there are.
  let limit: Int

  private struct State {
    var inFlight = 0
    var waiting: [Waiter] = []
    var firstWaiting = 0
  }

  private let state = Locked(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// The calls holding a slot plus those waiting for one.
  var operationCount: Int {
    state.withLock { $0.inFlight + $0.waiting.count - $0.firstWaiting }
  }

  /// Takes a slot and calls `granted(true)` at once when one is free; otherwise `granted` is
  /// called later, on the thread that frees a slot, or with `false` once the returned waiter is
  /// withdrawn first.
  @discardableResult
  func acquire(_ granted: @escaping @Sendable (Bool) -> Void) -> Waiter {
    let waiter = Waiter(granted)
    take(or: waiter)
    return waiter
  }

  /// Takes a free slot: `true` when the caller now holds one, `false` (and nothing changed)
  /// when every slot is taken or others are waiting for one.
  func tryAcquire() -> Bool {
    state.withLock { state in
      guard state.inFlight < limit, state.firstWaiting == state.waiting.count else {
        return false
      }
      state.inFlight += 1
      return true
    }
  }

  /// Takes a slot, waiting without a thread while none is free: `true` once the caller holds
  /// it, `false` when the task was cancelled first. A free slot is taken with no suspension.
  func acquire() async -> Bool {
    if tryAcquire() { return true }
    let waiter = Waiter(nil)
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        waiter.wait(continuation)
        take(or: waiter)
      }
    } onCancel: {
      withdraw(waiter)
    }
  }

  /// Gives a slot back: the first waiter gets it, or the count goes down.
  func release() {
    let next = state.withLock { state -> Waiter? in
      guard state.firstWaiting < state.waiting.count else {
        state.inFlight -= 1
        return nil
      }
      let waiter = state.waiting[state.firstWaiting]
      state.firstWaiting += 1
      if state.firstWaiting == state.waiting.count {
        state.waiting.removeAll(keepingCapacity: true)
        state.firstWaiting = 0
      }
      // A queued waiter has no outcome yet: withdrawing one takes it out of the queue first.
      waiter.settle(true)
      return waiter
    }
    next?.notify()
  }

  /// Takes `waiter` out of the queue, or keeps it from ever queuing, telling it `false`;
  /// nothing happens when it already got its slot.
  func withdraw(_ waiter: Waiter) {
    let refused = state.withLock { state -> Bool in
      if let index = state.waiting[state.firstWaiting...].firstIndex(where: { $0 === waiter }) {
        state.waiting.remove(at: index)
      }
      return waiter.settle(false)
    }
    if refused { waiter.notify() }
  }

  /// Gives `waiter` a free slot, or queues it, unless it was already refused. Outcomes are
  /// settled under the limiter's lock, so a slot is never both granted and refused.
  private func take(or waiter: Waiter) {
    let granted = state.withLock { state -> Bool in
      guard !waiter.isSettled else { return false }
      guard state.inFlight < limit, state.firstWaiting == state.waiting.count else {
        state.waiting.append(waiter)
        return false
      }
      state.inFlight += 1
      return waiter.settle(true)
    }
    if granted { waiter.notify() }
  }

  /// One caller waiting for a slot; told its outcome exactly once.
  final class Waiter: Sendable {
    private struct State {
      var handler: (@Sendable (Bool) -> Void)?
      var continuation: CheckedContinuation<Bool, Never>?
      var outcome: Bool?
    }

    private let state: Locked<State>

    fileprivate init(_ handler: (@Sendable (Bool) -> Void)?) {
      state = Locked(State(handler: handler))
    }

    fileprivate var isSettled: Bool { state.withLock { $0.outcome != nil } }

    /// Records the outcome; `false` when there already was one. Only under the limiter's lock.
    @discardableResult
    fileprivate func settle(_ granted: Bool) -> Bool {
      state.withLock { state in
        guard state.outcome == nil else { return false }
        state.outcome = granted
        return true
      }
    }

    /// Keeps the task's continuation, or resumes it at once when the outcome is known.
    fileprivate func wait(_ continuation: CheckedContinuation<Bool, Never>) {
      let outcome = state.withLock { state -> Bool? in
        if state.outcome == nil { state.continuation = continuation }
        return state.outcome
      }
      if let outcome { continuation.resume(returning: outcome) }
    }

    /// Tells the waiter its settled outcome, outside every lock; once.
    fileprivate func notify() {
      let (outcome, handler, continuation) = state.withLock {
        state -> (Bool, (@Sendable (Bool) -> Void)?, CheckedContinuation<Bool, Never>?) in
        defer { (state.handler, state.continuation) = (nil, nil) }
        return (state.outcome ?? false, state.handler, state.continuation)
      }
      handler?(outcome)
      continuation?.resume(returning: outcome)
    }
  }
}
