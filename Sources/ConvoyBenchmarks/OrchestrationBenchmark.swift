import Convoy
import ConvoyTesting
import Dispatch
import Foundation

/// Chains and groups of operations against plain `BlockOperation`s and a `TaskGroup`.
///
/// Every shape runs 10,000 trivial steps, so the figures are the cost of orchestration itself:
/// queueing, state changes, handing outputs on. `BlockOperation`s without dependencies are the
/// yardstick. A chain pre-wired with `addDependency` runs at 2,000 steps because Linux's queue
/// makes it quadratic (pass `--full` for 10,000, about 40 s).
func runOrchestrationBenchmark() {
  let count = 10_000
  let full = CommandLine.arguments.contains("--full")
  let connection = ServerConnection(
    configuration: .local(port: 9), transport: StubTransport { _ in .status(204) })
  let rounds = 5
  print(
    "orchestration: \(count) steps per shape, best of \(rounds) interleaved rounds, "
      + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
  let prewired = full ? count : 2_000
  let shapes: [(name: String, steps: Int, body: () -> Void)] = [
    ("BlockOperation ×\(count), no dependencies (yardstick)", count, { blockOperations(count) }),
    ("BlockOperation chain, each enqueues the next", count, { blockChainEnqueued(count) }),
    (
      "BlockOperation chain, addDependency ×\(prewired)", prewired, { blockChainPrewired(prewired) }
    ),
    ("TaskGroup, \(count) child tasks", count, { taskGroup(count) }),
    ("async chain, \(count) awaited child tasks", count, { taskChain(count) }),
    ("Convoy group of BlockResultOperations (job)", count, { convoyGroup(count, connection) }),
    ("Convoy chain of .then steps (job)", count, { convoyChain(count, connection) }),
    ("  of which building the chain (no run)", count, { buildChain(count) }),
    ("Convoy group of stub requests (job)", count, { convoyRequestGroup(count, connection) }),
    ("Convoy chain of stub requests (job)", count, { convoyRequestChain(count, connection) }),
  ]
  for shape in shapes { shape.body() }  // warm up: thread pools, lazy globals
  // Rounds interleave the shapes so that load from other processes hits them all alike.
  var best = Array(repeating: TimeInterval.infinity, count: shapes.count)
  for round in 0..<rounds {
    for (index, shape) in shapes.enumerated() where round == 0 || shape.steps == count {
      best[index] = min(best[index], time(shape.body))
    }
  }
  for (index, shape) in shapes.enumerated() {
    report(shape.name, best[index], shape.steps, best[0])
  }
}

private func time(_ body: () -> Void) -> TimeInterval {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

private func report(_ name: String, _ seconds: TimeInterval, _ steps: Int, _ baseline: TimeInterval)
{
  let perStep = seconds / Double(steps) * 1e6
  let baselinePerStep = baseline / 10_000 * 1e6
  let line =
    name.padding(toLength: 52, withPad: " ", startingAt: 0)
    + String(
      format: "%9.1f ms %8.2f µs/step %6.2f×", seconds * 1000, perStep, perStep / baselinePerStep)
  print(line)
}

private func blockOperations(_ count: Int) {
  let queue = OperationQueue()
  queue.addOperations((0..<count).map { _ in BlockOperation {} }, waitUntilFinished: true)
}

private func blockChainEnqueued(_ count: Int) {
  let queue = OperationQueue()
  let done = DispatchSemaphore(value: 0)
  @Sendable func step(_ index: Int) -> BlockOperation {
    BlockOperation {
      if index + 1 < count { queue.addOperation(step(index + 1)) } else { done.signal() }
    }
  }
  queue.addOperation(step(0))
  done.wait()
}

private func blockChainPrewired(_ count: Int) {
  let queue = OperationQueue()
  let operations = (0..<count).map { _ in BlockOperation {} }
  for index in 1..<count { operations[index].addDependency(operations[index - 1]) }
  queue.addOperations(operations, waitUntilFinished: true)
}

private func taskGroup(_ count: Int) {
  blockOn {
    await withTaskGroup(of: Int.self) { group in
      for index in 0..<count { group.addTask { index } }
      var sum = 0
      for await value in group { sum += value }
      precondition(sum >= 0)
    }
  }
}

private func taskChain(_ count: Int) {
  blockOn {
    var value = 0
    for _ in 0..<count {
      let previous = value
      value = await Task { previous + 1 }.value
    }
    precondition(value == count)
  }
}

private struct OperationJob<Output: Sendable>: Job {
  let make: @Sendable (ServerConnection) -> ResultOperation<Output>
  func makeOperation(on connection: ServerConnection) -> ResultOperation<Output> {
    make(connection)
  }
}

private struct NoContent: RequestDescribing {
  typealias Response = EmptyResponse
  var method: HTTPMethod { .get }
  var path: String { "ping" }
}

private func runJob<Output: Sendable>(
  _ connection: ServerConnection,
  _ make: @escaping @Sendable (ServerConnection) -> ResultOperation<Output>
) {
  let done = DispatchSemaphore(value: 0)
  connection.run(OperationJob(make: make), completionQueue: .global()) { result in
    if case .failure(let error) = result { fatalError("benchmark job failed: \(error)") }
    done.signal()
  }
  done.wait()
}

private func convoyGroup(_ count: Int, _ connection: ServerConnection) {
  runJob(connection) { _ in
    GroupOperation((0..<count).map { index in BlockResultOperation { index } })
  }
}

private func convoyChain(_ count: Int, _ connection: ServerConnection) {
  runJob(connection) { _ in
    var chain = BlockResultOperation { 0 }.then { value in BlockResultOperation { value + 1 } }
    for _ in 2..<count { chain = chain.then { value in BlockResultOperation { value + 1 } } }
    return chain
  }
}

private func buildChain(_ count: Int) {
  var chain = BlockResultOperation { 0 }.then { value in BlockResultOperation { value + 1 } }
  for _ in 2..<count { chain = chain.then { value in BlockResultOperation { value + 1 } } }
  precondition(!chain.isFinished)
}

private func convoyRequestGroup(_ count: Int, _ connection: ServerConnection) {
  runJob(connection) { connection in
    GroupOperation((0..<count).map { _ in connection.operation(for: NoContent()) })
  }
}

private func convoyRequestChain(_ count: Int, _ connection: ServerConnection) {
  runJob(connection) { connection in
    var chain = connection.operation(for: NoContent()).then { _ in
      connection.operation(for: NoContent())
    }
    for _ in 2..<count { chain = chain.then { _ in connection.operation(for: NoContent()) } }
    return chain
  }
}

/// Runs async work from the synchronous benchmark driver.
func blockOn(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task {
    await body()
    done.signal()
  }
  done.wait()
}
