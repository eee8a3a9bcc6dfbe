import Dispatch
import Foundation

/// Runs an action when a deadline passes unless it was cancelled first, with one timer for the
/// whole process.
///
/// Every exchange has a deadline and almost every one is cancelled early, when the answer arrives.
/// `DispatchQueue.asyncAfter` per exchange costs a timer source each and keeps it, with its
/// closure, until the deadline passes even after `DispatchWorkItem.cancel()`: at 10,000 requests/s
/// and a 60 s timeout that is 600,000 pending timers, and in one before/after run the churn was
/// about a third of a small request's CPU on Linux. Here cancelling removes the entry at once,
/// and the single timer is re-armed only when a new deadline is earlier than the one it waits for.
final class DeadlineScheduler: @unchecked Sendable {
  /// A scheduled action; cancelling it after it ran is harmless.
  struct Token: Sendable {
    fileprivate let id: UInt64
    fileprivate let scheduler: DeadlineScheduler

    /// Drops the action if it has not run yet.
    func cancel() {
      scheduler.cancel(id)
    }
  }

  /// The scheduler shared by every exchange.
  static let shared = DeadlineScheduler()

  private let lock = Lock()
  private var entries: [UInt64: (deadline: UInt64, action: @Sendable () -> Void)] = [:]
  private var nextID: UInt64 = 0
  /// The uptime in nanoseconds the timer fires at, or `.max` when it is idle.
  private var armedFor: UInt64 = .max
  private let queue = DispatchQueue(label: "Convoy.DeadlineScheduler")
  private let timer: any DispatchSourceTimer

  private init() {
    timer = DispatchSource.makeTimerSource(queue: queue)
    timer.setEventHandler { [unowned self] in fire() }
    timer.schedule(deadline: .distantFuture)
    timer.activate()
  }

  /// Runs `action` on a private queue once `seconds` have passed, unless cancelled before.
  func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Token {
    let deadline = DispatchTime.now().uptimeNanoseconds &+ Self.nanoseconds(seconds)
    let id = lock.withLock {
      nextID += 1
      entries[nextID] = (deadline, action)
      // Under the lock, so that two re-arms cannot land in the wrong order.
      if deadline < armedFor {
        armedFor = deadline
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
      }
      return nextID
    }
    return Token(id: id, scheduler: self)
  }

  private func cancel(_ id: UInt64) {
    _ = lock.withLock { entries.removeValue(forKey: id) }
  }

  /// Runs what is due and waits for the earliest deadline left; the scan is over the exchanges in
  /// flight only, and happens once per deadline rather than once per exchange.
  private func fire() {
    let now = DispatchTime.now().uptimeNanoseconds
    let due = lock.withLock {
      let dueIDs = entries.filter { $0.value.deadline <= now }.map(\.key)
      let due = dueIDs.compactMap { entries.removeValue(forKey: $0)?.action }
      armedFor = entries.values.lazy.map(\.deadline).min() ?? .max
      timer.schedule(
        deadline: armedFor == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: armedFor))
      return due
    }
    for action in due { action() }
  }

  private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
    guard seconds > 0 else { return 0 }
    return seconds >= 1e9 ? UInt64(1e18) : UInt64(seconds * 1e9)
  }
}
