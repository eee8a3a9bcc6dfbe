/// Lets only a few democli processes run at once, so the spawned processes do not crowd out the
/// rest of the test run (which shares two cores with them on CI) and make timing-sensitive tests
/// elsewhere flaky.
actor ProcessGate {
  static let shared = ProcessGate(capacity: 2)

  private let capacity: Int
  private var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Runs `body` once fewer than `capacity` bodies are running.
  func withSlot<Result: Sendable>(_ body: @Sendable () async throws -> Result) async rethrows
    -> Result
  {
    if running >= capacity {
      await withCheckedContinuation { waiting.append($0) }
    } else {
      running += 1
    }
    defer { release() }
    return try await body()
  }

  private func release() {
    if waiting.isEmpty {
      running -= 1
    } else {
      // The slot passes straight to the next waiter; `running` stays the same.
      waiting.removeFirst().resume()
    }
  }
}
