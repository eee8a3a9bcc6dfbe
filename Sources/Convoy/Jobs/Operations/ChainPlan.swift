import Foundation

/// The steps of a chain, shared by the chain objects that `then` and `map` return while it is
/// built, so that a chain of n steps costs n appends rather than n copies.
final class ChainPlan: @unchecked Sendable {
  private let lock = Lock()
  private var steps: [ChainStep]
  /// Chain objects that a longer chain replaced, by their step count: the running chain
  /// finishes each one when it gets past that step, so that no chain object is left unfinished.
  private var replacedChains: [(@Sendable ((any Error)?) -> Void)?] = []

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

  /// Registers how to finish the chain of `count` steps that a longer chain replaced.
  func registerReplacedChain(
    stepCount count: Int, finish: @escaping @Sendable ((any Error)?) -> Void
  ) {
    lock.withLock {
      if replacedChains.count <= count {
        replacedChains += Array(repeating: nil, count: count + 1 - replacedChains.count)
      }
      replacedChains[count] = finish
    }
  }

  /// Finishes the replaced chain of `count` steps, if any, with its last step's result.
  func finishReplacedChain(stepCount count: Int) {
    let finish = lock.withLock { () -> (@Sendable ((any Error)?) -> Void)? in
      guard count < replacedChains.count else { return nil }
      defer { replacedChains[count] = nil }
      return replacedChains[count]
    }
    finish?(nil)
  }

  /// Finishes every replaced chain shorter than `count` that is still waiting, with `error`.
  func finishReplacedChains(below count: Int, failingWith error: any Error) {
    let waiting = lock.withLock { () -> [@Sendable ((any Error)?) -> Void] in
      let end = min(count, replacedChains.count)
      defer { for index in 0..<end { replacedChains[index] = nil } }
      return replacedChains[0..<end].compactMap { $0 }
    }
    for finish in waiting { finish(error) }
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
///
/// No lock: a chain touches its slots only from its advancing thread, one step after another,
/// and each hand-over between threads already passes through an operation's lock and a queue.
final class ChainSlot<Value: Sendable>: @unchecked Sendable {
  private var result: Result<Value, any Error>?

  func put(_ result: Result<Value, any Error>) {
    self.result = result
  }

  /// The result without releasing it, for a replaced chain that ends at this step.
  func peek() -> Result<Value, any Error> {
    result ?? .failure(ServerConnectionError.cancelled)
  }

  /// The value, releasing it; throws the step's error so that a failure stops the chain.
  func take() throws -> Value {
    defer { result = nil }
    return try peek().get()
  }
}
