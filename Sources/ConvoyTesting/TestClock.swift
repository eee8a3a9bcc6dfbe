import Convoy
import Dispatch
import Foundation

/// A `ConvoyClock` that moves only when the test moves it: token expiry, cookie and cache
/// ageing, deadlines, retry back-off, stream reconnection delays and device-code polling happen
/// when the test calls ``advance(by:)``, never after real seconds.
///
/// Give it to the connection through `ServerConfiguration.clock` (and to an `HTTPCache` or a
/// `CookieJar` made beside it). What the code under test schedules waits until the clock passes
/// its time; ``advance(by:)`` then runs it, earliest first and in the order it was scheduled when
/// two are due at the same date, with ``now`` set to that date: the same steps every run.
///
/// Sleeping (`sleep(for:)`) waits for the clock like any scheduled action.
/// Code under test sleeps on another task, so a test waits until the sleep is scheduled before
/// it advances past it, with ``waitForWakeUp(in:within:)``; ``pendingWakeUps`` says how far
/// ahead each one is, so a test can check a back-off's length without measuring it:
///
/// ```swift
/// let clock = TestClock()
/// let sleeper = Task { try await clock.sleep(for: 30) }
/// _ = await clock.waitForWakeUp(in: 30)  // the sleep is scheduled: pendingWakeUps == [30]
/// clock.advance(by: 30)
/// try await sleeper.value
/// ```
public final class TestClock: ConvoyClock, Sendable {
  private struct Entry {
    var id: UInt64
    /// Seconds after the clock's origin.
    var deadline: TimeInterval
    var action: @Sendable () -> Void
  }

  private struct Watcher {
    var id: UInt64
    /// Whether the pending wake-ups (seconds ahead) are what the watcher waits for.
    var isMet: @Sendable ([TimeInterval]) -> Bool
    var continuation: CheckedContinuation<Bool, Never>
  }

  /// Time is kept as seconds after `origin`, so that a wake-up scheduled `s` seconds ahead is
  /// exactly `s` ahead, whatever the date (dates far from 1970 round small intervals).
  private struct State {
    var elapsed: TimeInterval = 0
    var entries: [Entry] = []
    var nextID: UInt64 = 0
    var watchers: [Watcher] = []

    var pendingWakeUps: [TimeInterval] {
      entries.map { $0.deadline - elapsed }.sorted()
    }

    /// Takes the watchers whose wait is over.
    mutating func satisfiedWatchers() -> [Watcher] {
      let pending = pendingWakeUps
      let satisfied = watchers.filter { $0.isMet(pending) }
      watchers.removeAll { $0.isMet(pending) }
      return satisfied
    }
  }

  private let state = Locked(State())
  private let origin: Date

  /// Creates a clock that stands at `now`.
  ///
  /// The default is the real date when it is made, to the whole second, so that dates a stub
  /// writes in real time are close to the clock's, and HTTP dates (whole seconds) can equal it.
  public init(now: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
  {
    origin = now
  }

  /// The clock's current date; it changes only in ``advance(by:)`` and ``advance(to:)``.
  public var now: Date { origin.addingTimeInterval(state.withLock { $0.elapsed }) }

  /// Keeps `action` until the clock passes `seconds` from now; an action already due
  /// (`seconds <= 0`) runs at once, on the calling thread.
  public func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void)
    -> ClockTimer
  {
    guard seconds > 0 else {
      action()
      return ClockTimer {}
    }
    let (id, watchers) = state.withLock { state in
      state.nextID += 1
      let entry = Entry(id: state.nextID, deadline: state.elapsed + seconds, action: action)
      state.entries.append(entry)
      return (entry.id, state.satisfiedWatchers())
    }
    for watcher in watchers { watcher.continuation.resume(returning: true) }
    return ClockTimer { [weak self] in
      self?.state.withLock { state in state.entries.removeAll { $0.id == id } }
    }
  }

  /// Moves the clock `seconds` forward, running every action that falls due on the way.
  public func advance(by seconds: TimeInterval) {
    advance(toElapsed: state.withLock { $0.elapsed } + max(0, seconds))
  }

  /// Moves the clock forward to `date`, running every action that falls due on the way, one at a
  /// time with ``now`` set to its date; actions they schedule before `date` run too. A `date`
  /// before ``now`` leaves the clock where it is.
  public func advance(to date: Date) {
    advance(toElapsed: date.timeIntervalSince(origin))
  }

  private func advance(toElapsed target: TimeInterval) {
    while true {
      let next = state.withLock { state -> Entry? in
        let due = state.entries.filter { $0.deadline <= target }
        guard
          let first = due.min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) })
        else {
          state.elapsed = max(state.elapsed, target)
          return nil
        }
        state.entries.removeAll { $0.id == first.id }
        state.elapsed = max(state.elapsed, first.deadline)
        return first
      }
      guard let next else { return }
      next.action()
    }
  }

  /// How far ahead of ``now`` each scheduled action is, in seconds, earliest first: the sleeps,
  /// back-offs and deadlines that are waiting for the clock.
  public var pendingWakeUps: [TimeInterval] {
    state.withLock { $0.pendingWakeUps }
  }

  /// Waits until at least `count` actions are scheduled on the clock (sleeps or deadlines the
  /// code under test started on another task); `false` when that did not happen within `seconds`
  /// of real time, a bound meant only to end a test that would otherwise hang.
  ///
  /// A connection's calls schedule their deadlines on its clock too; to wait for one particular
  /// sleep, ``waitForWakeUp(in:within:)`` says which.
  public func waitForWakeUps(_ count: Int = 1, within seconds: TimeInterval = 60) async -> Bool {
    await waitUntil(within: seconds) { $0.count >= count }
  }

  /// Waits until an action is scheduled `delay` seconds ahead of ``now`` (to a millisecond), such
  /// as a back-off of that length; `false` when that did not happen within `seconds` of real
  /// time, a bound meant only to end a test that would otherwise hang.
  public func waitForWakeUp(in delay: TimeInterval, within seconds: TimeInterval = 60) async
    -> Bool
  {
    await waitUntil(within: seconds) { pending in pending.contains { abs($0 - delay) < 0.001 } }
  }

  private func waitUntil(
    within seconds: TimeInterval, _ isMet: @escaping @Sendable ([TimeInterval]) -> Bool
  ) async -> Bool {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let isThere = state.withLock { state -> Bool in
        if isMet(state.pendingWakeUps) { return true }
        state.watchers.append(Watcher(id: id, isMet: isMet, continuation: continuation))
        return false
      }
      if isThere {
        continuation.resume(returning: true)
        return
      }
      // Real time on purpose: the bound only turns a hang into a failure, and must pass while
      // the test clock stands still.
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
        let expired = state.withLock { state -> Watcher? in
          guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
          return state.watchers.remove(at: index)
        }
        expired?.continuation.resume(returning: false)
      }
    }
  }
}
