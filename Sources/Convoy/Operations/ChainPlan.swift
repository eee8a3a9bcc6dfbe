import Foundation

/// The steps of a chain, shared by the chain objects that `then` and `map` return while it is
/// built, so that a chain of n steps costs n appends rather than n copies.
final class ChainPlan: @unchecked Sendable {
  private let lock = NSLock()
  private var steps: [ChainStep]

  init(first: ChainStep) {
    steps = [first]
  }

  private init(steps: [ChainStep]) {
    self.steps = steps
  }

  /// The plan with `step` appended after the first `count` steps: this plan when nobody appended
  /// to it since, a copy otherwise (a chain that was extended twice from the same point).
  func appending(_ step: ChainStep, after count: Int) -> ChainPlan {
    lock.withLock {
      if steps.count == count {
        steps.append(step)
        return self
      }
      return ChainPlan(steps: Array(steps.prefix(count)) + [step])
    }
  }

  func step(at index: Int) -> ChainStep {
    lock.withLock { steps[index] }
  }

  /// How many of the first `count` steps run an operation (map steps run inline).
  func operationCount(upTo count: Int) -> Int {
    lock.withLock { steps.prefix(count).lazy.filter(\.producesOperation).count }
  }
}

/// One step: either a value computed inline, or an operation to run and collect.
struct ChainStep: Sendable {
  enum Outcome {
    case value
    case operation(AsyncOperation, collect: @Sendable () -> Void)
  }

  let producesOperation: Bool
  let run: @Sendable () throws -> Outcome
}

/// Hands one step's typed result to the next step without erasing its type.
final class ChainSlot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<Value, any Error>?

  func put(_ result: Result<Value, any Error>) {
    lock.withLock { self.result = result }
  }

  /// The value, releasing it; throws the step's error so that a failure stops the chain.
  func take() throws -> Value {
    let result = lock.withLock {
      defer { self.result = nil }
      return self.result
    }
    return try (result ?? .failure(ServerConnectionError.cancelled)).get()
  }
}
