import Convoy
import Dispatch
import Foundation

/// `convoy-benchmarks calls [count] [curl]`: what Convoy's own work costs per call, on a transport
/// that answers at once on the calling thread, so that no network, no other process and no
/// thread crossing of a transport's is counted: the pipeline, the limiter, the operation, metrics
/// and events. Each form an app awaits a call in runs `count` calls (default 20,000). With
/// `curl`, the calls go to a local nginx (1 KB) through `CurlTransport` instead: the whole
/// client side of a request.
///
/// It first prints what one hand-over of work to a sleeping thread takes on the machine: the
/// forms differ mostly in how many they make. CPU is `getrusage` over each form. For figures that do not depend on what else the machine is
/// doing, run it under `valgrind --tool=callgrind` with two counts and one form
/// (`CONVOY_BENCH_ONLY`): the difference in instructions over the difference in counts is the
/// instructions per call, start-up cancelled out.
func runCallCostBenchmark() {
  let arguments = CommandLine.arguments.dropFirst(2)
  let count = arguments.first.flatMap(Int.init) ?? 20_000
  let only = ProcessInfo.processInfo.environment["CONVOY_BENCH_ONLY"]
  var nginx: LocalNginx?
  defer { nginx?.stop() }
  let connection: ServerConnection
  if arguments.contains("curl") {
    do {
      let port: Int
      if let given = ProcessInfo.processInfo.environment["CONVOY_BENCH_PORT"].flatMap(Int.init) {
        // A server started outside serves /ping: under valgrind, Foundation cannot spawn one.
        port = given
      } else {
        guard let binary = LocalNginx.binary() else { throw BenchmarkError("no nginx") }
        nginx = try LocalNginx.start(binary: binary, extraFiles: ["ping": ImmediateTransport.body])
        port = nginx!.port
      }
      connection = try curlConnection(port: port)
    } catch {
      print("calls: SKIPPED, \(error)")
      return
    }
  } else {
    connection = ServerConnection(
      configuration: .local(port: 9), transport: ImmediateTransport(), networkConcurrencyLimit: 8)
  }
  let forms: [(name: String, run: @Sendable (ServerConnection, Int) async -> Void)] = [
    ("execute, awaited one after another", awaitedOneByOne),
    ("execute with a completion handler, one after another", completionOneByOne),
    ("execute awaited, then to the completion queue and back", awaitedThenCompletionQueue),
    ("execute awaited, through an app's adapter", awaitedThroughAnAppsAdapter),
    ("8 lone awaited calls in flight", eightLoneCallsInFlight),
    ("jobs of a group of 8 calls", groupJobsOfEight),
  ].filter { only == nil || $0.name.contains(only!) }
  let road =
    arguments.contains("curl") ? "curl to a local nginx" : "a transport that answers at once"
  print("calls: \(count) per form on \(road), CPU per call")
  print(
    String(
      format: "  (one hand-over to a sleeping thread here takes %.1f µs of wall time)",
      handOverMicroseconds()))
  for form in forms {
    blockOn { await form.run(connection, 200) }  // warm up: lazy globals, the pool's threads
    let before = processCPUTime()
    blockOn { await form.run(connection, count) }
    let microseconds = (processCPUTime() - before) * 1e6 / Double(max(count, 1))
    print(
      "  " + form.name.padding(toLength: 56, withPad: " ", startingAt: 0)
        + String(format: "%6.1f µs", microseconds))
  }
}

/// What handing work to a sleeping thread costs on this machine, the unit that the forms'
/// differences are made of: two threads pass a token back and forth through semaphores, each
/// pass waking the other; the mean wall time of one pass.
private func handOverMicroseconds(passes: Int = 20_000) -> Double {
  let there = DispatchSemaphore(value: 0)
  let back = DispatchSemaphore(value: 0)
  let partner = Thread {
    for _ in 0..<passes {
      there.wait()
      back.signal()
    }
  }
  partner.start()
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<passes {
    there.signal()
    back.wait()
  }
  let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start)
  return nanoseconds / Double(2 * passes) / 1_000
}

private func curlConnection(port: Int) throws -> ServerConnection {
  #if os(Linux)
    ServerConnection(
      configuration: .local(port: port), transport: try CurlTransport(),
      networkConcurrencyLimit: 8)
  #else
    throw BenchmarkError("curl runs on Linux only")
  #endif
}

private func awaitedOneByOne(_ connection: ServerConnection, _ count: Int) async {
  for _ in 0..<count { await check(try? connection.execute(Ping())) }
}

/// The same calls on a connection with one adapter of an app's: Convoy cannot see into it, so it
/// runs against the call's deadline in a task of its own.
private func awaitedThroughAnAppsAdapter(_ connection: ServerConnection, _ count: Int) async {
  let adapted = ServerConnection(
    configuration: connection.configuration, transport: connection.transport,
    adapters: [AnyRequestAdapter { request, _ in request }], networkConcurrencyLimit: 8)
  await awaitedOneByOne(adapted, count)
}

private func completionOneByOne(_ connection: ServerConnection, _ count: Int) async {
  for _ in 0..<count {
    let answer = await withCheckedContinuation { continuation in
      _ = connection.execute(Ping()) { continuation.resume(returning: try? $0.get()) }
    }
    await check(answer)
  }
}

/// The floor of the completion-handler form, bridged as the benchmark bridges it: the awaited
/// call, then the two hand-overs that form cannot skip (its answer goes to the completion queue,
/// and from there to the awaiting task).
private func awaitedThenCompletionQueue(_ connection: ServerConnection, _ count: Int) async {
  for _ in 0..<count {
    let answer = try? await connection.execute(Ping())
    await withCheckedContinuation { continuation in
      DispatchQueue.convoyCompletions.async { continuation.resume() }
    }
    await check(answer)
  }
}

private func eightLoneCallsInFlight(_ connection: ServerConnection, _ count: Int) async {
  await withTaskGroup(of: Void.self) { group in
    for _ in 0..<8 {
      group.addTask { await awaitedOneByOne(connection, count / 8) }
    }
  }
}

private func groupJobsOfEight(_ connection: ServerConnection, _ count: Int) async {
  for _ in 0..<(count / 8) {
    let group = GroupOperation((0..<8).map { _ in connection.operation(for: Ping()) })
    let answers = try? await connection.run(group)
    precondition(answers?.count == 8, "a benchmark job failed")
  }
}

private func check(_ answer: DataResponse?) async {
  precondition(answer?.data.count == ImmediateTransport.body.count, "a benchmark call failed")
}

private struct Ping: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "ping" }
}

/// Answers every request with 200 and 1 KB without suspending.
private struct ImmediateTransport: HTTPTransport {
  static let body = Data(repeating: UInt8(ascii: "x"), count: 1_024)

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    let head = HTTPResponse(
      statusCode: 200, url: request.urlRequest.url,
      headers: HTTPHeaders(["Content-Type": "application/octet-stream"]))
    let metrics = TransferMetrics(
      startDate: Date(), duration: 0, bytesReceived: Self.body.count, bytesSent: 0)
    return TransportAnswer(TransportResponse(head: head, data: Self.body, metrics: metrics))
  }
}
