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
    let waiter = Waiter()
    let isFree = state.withLock { state -> Bool in
      guard takeFreeSlot(&state) else {
        waiter.handler = granted
        state.waiting.append(waiter)
        return false
      }
      waiter.outcome = true
      return true
    }
    if isFree { granted(true) }
    return waiter
  }

  /// Takes a free slot: `true` when the caller now holds one, `false` (and nothing changed)
  /// when every slot is taken or others are waiting for one.
  func tryAcquire() -> Bool {
    state.withLock { takeFreeSlot(&$0) }
  }

  /// Takes a slot, waiting without a thread while none is free: `true` once the caller holds
  /// it, `false` when the task was cancelled first. A free slot is taken with no suspension.
  nonisolated(nonsending) func acquire() async -> Bool {
    if tryAcquire() { return true }
    let waiter = Waiter()
    return await withTaskCancellationHandler {
      // Unchecked: the limiter resumes a waiter's continuation once, under its lock's rules, and
      // a checked one would allocate a canary for every waiting call.
      await withUnsafeContinuation { continuation in
        let outcome = state.withLock { state -> Bool? in
          // Withdrawn before it could queue: the task was cancelled first.
          if let outcome = waiter.outcome { return outcome }
          if takeFreeSlot(&state) {
            waiter.outcome = true
            return true
          }
          waiter.continuation = continuation
          state.waiting.append(waiter)
          return nil
        }
        if let outcome { continuation.resume(returning: outcome) }
      }
    } onCancel: {
      withdraw(waiter)
    }
  }

  /// Gives a slot back: the first waiter gets it, or the count goes down.
  func release() {
    let next = state.withLock { state -> Waiter.Wakeup? in
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
      return waiter.settle(true)
    }
    next?.deliver()
  }

  /// Takes `waiter` out of the queue, or keeps it from ever queuing, telling it `false`;
  /// nothing happens when it already got its slot.
  func withdraw(_ waiter: Waiter) {
    let refusal = state.withLock { state -> Waiter.Wakeup? in
      if let index = state.waiting[state.firstWaiting...].firstIndex(where: { $0 === waiter }) {
        state.waiting.remove(at: index)
      }
      return waiter.settle(false)
    }
    refusal?.deliver()
  }

  /// Counts a slot as taken when one is free and nobody is waiting for one. Lock held.
  private func takeFreeSlot(_ state: inout State) -> Bool {
    guard state.inFlight < limit, state.firstWaiting == state.waiting.count else { return false }
    state.inFlight += 1
    return true
  }

  /// One caller waiting for a slot; told its outcome exactly once.
  ///
  /// Its fields are guarded by the limiter's lock, which every change of them already holds:
  /// a waiter has no lock of its own, one allocation less for each call that waits.
  final class Waiter: @unchecked Sendable {
    fileprivate var handler: (@Sendable (Bool) -> Void)?
    fileprivate var continuation: UnsafeContinuation<Bool, Never>?
    fileprivate var outcome: Bool?

    fileprivate init() {}

    /// Whom to tell, and what, once the lock is released.
    fileprivate struct Wakeup {
      let outcome: Bool
      let handler: (@Sendable (Bool) -> Void)?
      let continuation: UnsafeContinuation<Bool, Never>?

      /// Tells the waiter, outside every lock.
      func deliver() {
        handler?(outcome)
        continuation?.resume(returning: outcome)
      }
    }

    /// Records the outcome and hands over whom to tell: `nil` when there already was one (or,
    /// for a waiter not queued yet, nobody to tell: it reads the outcome before queuing).
    /// Limiter's lock held.
    fileprivate func settle(_ granted: Bool) -> Wakeup? {
      guard outcome == nil else { return nil }
      outcome = granted
      defer { (handler, continuation) = (nil, nil) }
      return Wakeup(outcome: granted, handler: handler, continuation: continuation)
    }
  }
}
