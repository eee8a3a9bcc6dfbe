import Convoy
import ConvoyTesting
import Foundation
import Testing

/// Races completion against cancellation in many random shapes and checks the promises:
/// every job completes exactly once, every operation it built finishes, and every operation is
/// released afterwards.
@Suite struct JobStressTests {
  @Test func tenThousandRandomRunsCompleteOnceFinishEveryOperationAndReleaseThem() async throws {
    let seed = UInt64(Date().timeIntervalSince1970 * 1000)
    var random = SplitMix64(seed: seed)
    let (connection, _) = API.connection(networkLimit: 4)
    let batches = Int(ProcessInfo.processInfo.environment["CONVOY_STRESS_BATCHES"] ?? "20") ?? 20
    let runsPerBatch = 500
    var weakOperations: [WeakOperation] = []
    var successes = 0
    for _ in 0..<batches {
      let tracker = OperationTracker()
      let completions = (0..<runsPerBatch).map { _ in Outcome<Bool>() }
      for index in 0..<runsPerBatch {
        let shape = Shape.random(using: &random, depth: 0)
        let job = OperationJob { connection in shape.build(on: connection, tracker: tracker) }
        let completion = completions[index]
        let cancelMode = random.next() % 5
        let cancelAfterYields = Int(random.next() % 200)
        let tokenBox = Recorder<JobToken>()
        let token = connection.run(job, completionQueue: .global()) { result in
          if cancelMode == 3 { tokenBox.all.first?.cancel() }
          completion.record(result.successValue != nil)
        }
        tokenBox.append(token)
        switch cancelMode {
        case 1:
          token.cancel()
        case 2:
          // A cancel at a random moment of the run, the race under test: after other work ran
          // a random number of times, not after a guessed time.
          Task {
            for _ in 0..<cancelAfterYields { await Task.yield() }
            token.cancel()
          }
        case 4:
          DispatchQueue.global().async { token.cancel() }
          token.cancel()
        default:
          break
        }
      }
      for completion in completions {
        #expect(await completion.first(within: 60) != nil, "a job never completed (seed \(seed))")
      }
      let operations = tracker.all
      let allFinished = await eventually(within: 30) { operations.allSatisfy { $0.isFinished } }
      let unfinished = operations.filter { !$0.isFinished }.map { String(describing: type(of: $0)) }
      #expect(allFinished, "unfinished: \(unfinished.prefix(5)) (seed \(seed))")
      weakOperations += operations.map(WeakOperation.init)
      // The tracker is captured by the closures it keeps alive: break that test-made cycle.
      tracker.removeAll()
      // Every operation has left the queues: no completion can be started any more.
      #expect(await connection.settled())
      #expect(completions.allSatisfy { $0.count == 1 }, "a job completed twice (seed \(seed))")
      successes += completions.filter { $0.all.first == true }.count
    }
    // Both outcomes must have happened, or the race was not exercised.
    #expect(successes > 0 && successes < batches * runsPerBatch)
    let everyWeak = weakOperations
    let released = await eventually(within: 30) { everyWeak.allSatisfy { $0.operation == nil } }
    let leaked = weakOperations.filter { $0.operation != nil }.count
    #expect(released, "\(leaked) operations were never released (seed \(seed))")
  }

  @Test func finishedOperationsOfACompletedJobAreReleased() async throws {
    let (connection, _) = API.connection()
    let tracker = OperationTracker()
    let shape = Shape.group(
      [.chain([.request(0), .block, .request(0)]), .group([.request(0), .failure], true)], false)
    _ = await connection.runAndWait(
      OperationJob { connection in shape.build(on: connection, tracker: tracker) })
    let weak = tracker.all.map(WeakOperation.init)
    tracker.removeAll()
    #expect(weak.count >= 6)
    #expect(await eventually { weak.allSatisfy { $0.operation == nil } })
  }
}

/// A random composition of requests, blocks, chains and groups.
indirect enum Shape: Sendable {
  case request(Double)
  case failure
  case block
  case chain([Shape])
  case group([Shape], Bool)

  static func random(using random: inout SplitMix64, depth: Int) -> Shape {
    func child(_ random: inout SplitMix64) -> Shape {
      Shape.random(using: &random, depth: depth + 1)
    }
    let roll = random.next() % (depth >= 2 ? 4 : 6)
    switch roll {
    case 0: return .request(random.next() % 2 == 0 ? 0 : 0.001)
    case 1: return random.next() % 4 == 0 ? .failure : .block
    case 2: return .block
    case 3: return .request(0)
    case 4:
      return .chain(
        (0..<(1 + Int(random.next() % 3))).map { _ in child(&random) })
    default:
      return .group(
        (0..<Int(random.next() % 4)).map { _ in child(&random) },
        random.next() % 2 == 0)
    }
  }

  /// The operation for this shape; every operation made is registered with `tracker`.
  func build(on connection: ServerConnection, tracker: OperationTracker) -> ResultOperation<Int> {
    switch self {
    case .request(let delay):
      return tracker.track(
        connection.operation(for: API.NumberRequest(value: 1, delay: delay))
          .map(\.value.value))
    case .failure:
      return tracker.track(BlockResultOperation<Int> { throw TestError.boom })
    case .block:
      return tracker.track(BlockResultOperation { 1 })
    case .chain(let steps):
      // Every intermediate chain is tracked too: a longer chain replaces it, and must finish it.
      var chain = tracker.track(BlockResultOperation { 0 }.map { $0 })
      for step in steps {
        chain = tracker.track(
          chain.then { total in
            step.build(on: connection, tracker: tracker).map { total + $0 }
          })
      }
      return chain
    case .group(let children, let collecting):
      let operations = children.map { $0.build(on: connection, tracker: tracker) }
      if collecting {
        return tracker.track(
          GroupOperation(collecting: operations, maximumConcurrentChildren: 2)
            .map { $0.reduce(0) { $0 + ((try? $1.get()) ?? 0) } })
      }
      return tracker.track(GroupOperation(operations).map { $0.reduce(0, +) })
    }
  }
}

/// Keeps every operation a batch built, to check afterwards that each one finished.
final class OperationTracker: @unchecked Sendable {
  private let lock = NSLock()
  private var operations: [AsyncOperation] = []

  func track<Operation: AsyncOperation>(_ operation: Operation) -> Operation {
    lock.withLock { operations.append(operation) }
    return operation
  }

  var all: [AsyncOperation] { lock.withLock { operations } }

  func removeAll() { lock.withLock { operations = [] } }
}

struct WeakOperation: @unchecked Sendable {
  weak var operation: AsyncOperation?
  init(_ operation: AsyncOperation) { self.operation = operation }
}

/// A small seeded generator, so that a failing run can be replayed from its printed seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
