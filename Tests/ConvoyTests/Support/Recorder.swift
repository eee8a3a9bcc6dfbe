import Convoy
import Foundation

/// An ordered log that operations on any thread can append to.
final class Recorder<Entry: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [Entry] = []

  func append(_ entry: Entry) { lock.withLock { entries.append(entry) } }

  var all: [Entry] { lock.withLock { entries } }
}

extension ServerConnection {
  /// Runs `job` with the callback API and waits, bounded, for its one completion.
  func runAndWait<J: Job>(_ job: J, within seconds: Double = Wait.bound) async -> Result<
    J.Output, any Error
  >? {
    let outcome = Outcome<Result<J.Output, any Error>>()
    run(job, completionQueue: testQueue) { outcome.record($0) }
    return await outcome.first(within: seconds)
  }
}
