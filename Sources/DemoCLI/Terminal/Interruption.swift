import Convoy
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C: cancels the running work through its `JobToken`, puts the terminal back, and exits
/// with 130 (128 + SIGINT, what shells report for an interrupted program).
///
/// SIGINT is ignored and then watched with a dispatch source, so the handler is ordinary Swift
/// on a queue rather than async-signal-unsafe code. When work is running, the command sees its
/// cancellation and exits 130 itself; if the work does not unwind within ``gracePeriod``, or
/// nothing cancellable runs (a prompt is waiting), the handler exits.
final class Interruption: Sendable {
  private struct State {
    var interrupted = false
    var actions: [UUID: @Sendable () -> Void] = [:]
    var runningWork = 0
  }

  /// How long cancelled work may take to unwind before the process exits anyway.
  static let gracePeriod: TimeInterval = 2

  private let state = Locked(State())
  private let queue = DispatchQueue(label: "democli.interruption")
  private let source = Locked<(any DispatchSourceSignal)?>(nil)

  /// Starts watching for SIGINT.
  func install() {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
    source.setEventHandler { [self] in interrupt() }
    source.resume()
    self.source.withLock { $0 = source }
  }

  /// Whether Ctrl-C was pressed.
  var wasInterrupted: Bool { state.withLock { $0.interrupted } }

  /// Runs `action` on Ctrl-C (at once if it was already pressed) until ``remove(_:)``.
  @discardableResult
  func onInterrupt(_ action: @escaping @Sendable () -> Void) -> UUID {
    let id = UUID()
    let runNow = state.withLock { state -> Bool in
      if state.interrupted { return true }
      state.actions[id] = action
      return false
    }
    if runNow { action() }
    return id
  }

  /// Stops running the action registered as `id`.
  func remove(_ id: UUID) {
    state.withLock { _ = $0.actions.removeValue(forKey: id) }
  }

  /// Runs `cancel` on Ctrl-C while `work` runs; the process then waits for the work to end.
  func cancelling<Output>(
    with cancel: @escaping @Sendable () -> Void, during work: () async throws -> Output
  ) async rethrows -> Output {
    state.withLock { $0.runningWork += 1 }
    let id = onInterrupt(cancel)
    defer {
      remove(id)
      state.withLock { $0.runningWork -= 1 }
    }
    return try await work()
  }

  private func interrupt() {
    let (actions, hasWork) = state.withLock { state in
      state.interrupted = true
      defer { state.actions = [:] }
      return (Array(state.actions.values), state.runningWork > 0)
    }
    for action in actions { action() }
    guard hasWork else { exit(ExitCode.interrupted.rawValue) }
    queue.asyncAfter(deadline: .now() + Self.gracePeriod) {
      exit(ExitCode.interrupted.rawValue)
    }
  }
}
