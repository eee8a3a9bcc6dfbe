import Convoy
import Dispatch
import Foundation

/// A single self-rewriting line on standard error while network work runs: a spinner, what is
/// happening, the steps done when known, and the time so far.
///
/// It appears only when standard error is a terminal, so piped or captured output never
/// contains carriage returns or escape codes.
final class ProgressLine: Sendable {
  private struct State {
    var label: String
    var completed = 0
    var total = 0
    /// Shown instead of the steps when set, e.g. a download's bar.
    var detail: String?
    var frame = 0
    var isFinished = false
    var timer: (any DispatchSourceTimer)?
    var interruptRegistration: UUID?
  }

  private static let frames = ["|", "/", "-", "\\"]
  private let state: Locked<State>
  private let queue = DispatchQueue(label: "democli.progress")
  private let started = Date()
  private let interruption: Interruption

  /// Whether the line is drawn at all.
  let isEnabled: Bool

  /// Starts showing `label` if standard error is a terminal.
  init(_ label: String, interruption: Interruption, isEnabled: Bool = Terminal.errorIsTerminal) {
    self.state = Locked(State(label: label))
    self.interruption = interruption
    self.isEnabled = isEnabled
    guard isEnabled else { return }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    // The first frame waits a moment, so work that ends at once never flickers a line.
    timer.schedule(deadline: .now() + .milliseconds(150), repeating: .milliseconds(100))
    timer.setEventHandler { [weak self] in self?.draw() }
    let registration = interruption.onInterrupt { [weak self] in self?.finish() }
    state.withLock {
      $0.timer = timer
      $0.interruptRegistration = registration
    }
    timer.resume()
  }

  /// Shows how many of the known steps are done.
  func update(completed: Int, total: Int) {
    state.withLock {
      $0.completed = completed
      $0.total = total
    }
  }

  /// Shows `detail` after the label instead of the steps, e.g. `[####      ] 40% 16 MB of 40 MB`.
  func update(detail: String) {
    state.withLock { $0.detail = detail }
  }

  /// Removes the line; later updates draw nothing.
  func finish() {
    guard isEnabled else { return }
    let (timer, registration) = state.withLock { state in
      defer {
        state.isFinished = true
        state.timer = nil
      }
      return (state.timer, state.interruptRegistration)
    }
    timer?.cancel()
    registration.map(interruption.remove)
    // Drawing happens on the queue; clearing there too means no frame can follow the clearing.
    queue.sync { Terminal.writeError("\r\u{1B}[K") }
  }

  private func draw() {
    let text: String? = state.withLock { state in
      guard !state.isFinished else { return nil }
      state.frame += 1
      let steps =
        state.detail.map { " " + $0 }
        ?? (state.total > 0 ? " (\(state.completed)/\(state.total))" : "")
      let seconds = String(format: "%.1f s", Date().timeIntervalSince(started))
      return "\(Self.frames[state.frame % Self.frames.count]) \(state.label)\(steps) \(seconds)"
    }
    if let text { Terminal.writeError("\r\u{1B}[K" + text) }
  }
}

extension ProgressLine {
  /// `[########            ] 40% 16 MB of 40 MB`, or the bytes alone when the size is unknown.
  static func bar(_ progress: TransferProgress) -> String {
    guard let fraction = progress.fractionCompleted else { return format(progress.completedBytes) }
    let width = 20
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
    return "[\(bar)] \(Int(fraction * 100))% \(progress)"
  }

  static func format(_ bytes: Int64) -> String {
    ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
  }
}
