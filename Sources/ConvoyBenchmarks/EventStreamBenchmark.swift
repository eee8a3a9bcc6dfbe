import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Server-sent events through `connection.events` against `scripts/sse_server.py` (sse-starlette
/// on uvicorn, the integration tests' server), whose `/ticks` events carry their send time.
///
/// Two runs: a burst (`CONVOY_BENCH_EVENTS`, default 20,000 events sent back to back) for events
/// per second, with libcurl reading the same burst directly as the ceiling the server allows; and
/// a paced run (500 events, one every 10 ms) for latency from the server's write to the consumer's
/// loop, both read with `CLOCK_MONOTONIC` on this machine. Needs `.venv` (made by `scripts/test`).
///
/// Python sends about as fast as Convoy reads, so a third run takes the server out of the way:
/// nginx serves a file of `CONVOY_BENCH_STATIC_EVENTS` (default 500,000) events as
/// `text/event-stream`, which shows how many events per second the client side can take.
func runEventStreamBenchmark() {
  runStaticEventBurst()
  let environment = ProcessInfo.processInfo.environment
  let python = environment["CONVOY_SSE_PYTHON"] ?? ".venv/bin/python"
  let script = "scripts/sse_server.py"
  guard FileManager.default.isExecutableFile(atPath: python),
    FileManager.default.fileExists(atPath: script)
  else {
    print(
      "sse: SKIPPED, run from the package folder after `scripts/test` made .venv "
        + "(or set CONVOY_SSE_PYTHON to a Python with sse-starlette and uvicorn).")
    return
  }
  let server: EventServer
  do {
    server = try EventServer.start(python: python, script: script)
  } catch {
    print("sse: SKIPPED, \(error)")
    return
  }
  defer { server.stop() }
  let burst = max(100, environment["CONVOY_BENCH_EVENTS"].flatMap(Int.init) ?? 20_000)
  print(
    "sse: scripts/sse_server.py (sse-starlette on uvicorn) on 127.0.0.1:\(server.port), "
      + "\(curlDescription()), \(ProcessInfo.processInfo.activeProcessorCount) CPUs, "
      + "load \(loadAverageText())")
  let ticks = { (count: Int, interval: Double, key: String) in
    TicksRequest(count: count, interval: interval, key: key)
  }
  #if os(Linux)
    if let raw = RawLibcurlDownload() {
      let request = ticks(burst, 0, "raw")
      let url = URL(string: "http://127.0.0.1:\(server.port)/ticks?\(request.query)")!
      // A first burst warms the server up (imports, first connection), as the later runs find it.
      _ = raw.run(url: url, to: "/dev/null", sync: false)
      let started = Date()
      let ok = raw.run(url: url, to: "/dev/null", sync: false) != nil
      let seconds = Date().timeIntervalSince(started)
      print(
        "  raw libcurl, burst of \(burst): "
          + (ok
            ? String(format: "%.0f events/s", Double(burst) / seconds)
              + " (what the server sends; one sample, after a warm-up burst)"
            : "FAILED"))
    }
  #endif
  for (name, transport) in eventTransports() {
    let connection = ServerConnection(
      configuration: .local(port: server.port), transport: transport)
    let burstRun = readTicks(connection, ticks(burst, 0, "burst-\(name.count)"))
    let pacedRun = readTicks(connection, ticks(500, 0.01, "paced-\(name.count)"))
    print("  \(name), burst of \(burst): \(burstRun.summary(rate: true))")
    print("  \(name), 500 paced 10 ms apart: \(pacedRun.summary(rate: false))")
  }
}

/// Events per second when the server is no limit: a static event stream from nginx.
private func runStaticEventBurst() {
  guard let binary = LocalNginx.binary() else {
    print("sse (static burst): SKIPPED, nginx is not installed (`apt-get install nginx-light`).")
    return
  }
  let count = max(
    100,
    ProcessInfo.processInfo.environment["CONVOY_BENCH_STATIC_EVENTS"].flatMap(Int.init) ?? 500_000)
  var text = "retry: 100\n\n"
  for index in 1...count {
    text +=
      "id: \(index)\nevent: tick\ndata: {\"index\":\(index),\"note\":\"a tick of the benchmark\"}\n\n"
  }
  let file = Data(text.utf8)
  let nginx: LocalNginx
  do {
    nginx = try LocalNginx.start(binary: binary, extraFiles: ["events.sse": file])
  } catch {
    print("sse (static burst): SKIPPED, \(error)")
    return
  }
  defer { nginx.stop() }
  print(
    "sse (static burst): \(count) events (\(file.count / 1_000) kB) from \(nginx.version) on "
      + "127.0.0.1:\(nginx.port), \(curlDescription()), load \(loadAverageText())")
  #if os(Linux)
    if let raw = RawLibcurlDownload() {
      let started = Date()
      let ok =
        raw.run(
          url: URL(string: "http://127.0.0.1:\(nginx.port)/events.sse")!, to: "/dev/null",
          sync: false) != nil
      let seconds = Date().timeIntervalSince(started)
      print(
        "  raw libcurl (bytes only, no parsing): "
          + (ok ? String(format: "%.0f events/s", Double(count) / seconds) : "FAILED"))
    }
  #endif
  for (name, transport) in eventTransports() {
    let connection = ServerConnection(configuration: .local(port: nginx.port), transport: transport)
    let (events, seconds, failure) = runBlocking { () -> (Int, Double, String?) in
      var events = 0
      let started = Date()
      do {
        for try await event in connection.events(StaticPath(path: "/events.sse")) {
          if !event.data.isEmpty { events += 1 }
          if events == count { break }
        }
      } catch {
        return (events, Date().timeIntervalSince(started), String(describing: error))
      }
      return (events, Date().timeIntervalSince(started), nil)
    }
    print(
      "  \(name): "
        + (failure.map { "FAILED after \(events) events: \($0)" }
          ?? String(format: "%.0f events/s", Double(events) / seconds)))
  }
}

private func eventTransports() -> [(String, any HTTPTransport)] {
  var transports: [(String, any HTTPTransport)] = []
  #if os(Linux)
    if let curl = try? CurlTransport() { transports.append(("Convoy on curl", curl)) }
  #endif
  if ProcessInfo.processInfo.environment["CONVOY_BENCH_NO_URLSESSION"] == nil {
    transports.append(("Convoy on URLSession", URLSessionTransport()))
  }
  return transports
}

/// `GET /ticks`: `count` events, `interval` seconds apart, each carrying its send time.
private struct TicksRequest: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "/ticks" }
  let count: Int
  let interval: Double
  let key: String

  var queryItems: [URLQueryItem] {
    [
      URLQueryItem(name: "key", value: key), URLQueryItem(name: "count", value: "\(count)"),
      URLQueryItem(name: "interval", value: "\(interval)"),
    ]
  }

  var query: String { "key=\(key)&count=\(count)&interval=\(interval)" }
}

private struct TicksRun {
  var events = 0
  var seconds = 0.0
  var latencies: [Double] = []
  var error: String?

  func summary(rate: Bool) -> String {
    if let error { return "FAILED after \(events) events: \(error)" }
    let sorted = latencies.sorted()
    func percentile(_ share: Double) -> String {
      guard !sorted.isEmpty else { return "-" }
      let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))]
      return String(format: "%.2f ms", value * 1_000)
    }
    var text = ""
    if rate { text += String(format: "%.0f events/s, ", Double(events) / seconds) }
    return text + "latency p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))"
  }
}

/// Reads every tick through `connection.events`, noting when each reached the loop; parses the
/// send times only afterwards, so the loop does no more than an app's would.
private func readTicks(_ connection: ServerConnection, _ request: TicksRequest) -> TicksRun {
  runBlocking {
    var received: [(UInt64, String)] = []
    received.reserveCapacity(request.count)
    var run = TicksRun()
    let started = Date()
    do {
      // The server ends the stream after the last tick; stop there rather than reconnect.
      for try await event in connection.events(request) {
        received.append((monotonicNanoseconds(), event.data))
        if received.count == request.count { break }
      }
    } catch {
      run.error = String(describing: error)
    }
    run.seconds = Date().timeIntervalSince(started)
    run.events = received.count
    for (arrival, data) in received {
      guard let tick = try? JSONDecoder().decode(Tick.self, from: Data(data.utf8)) else { continue }
      run.latencies.append(Double(Int64(arrival) - tick.monotonicNanoseconds) / 1e9)
    }
    return run
  }
}

private struct Tick: Decodable {
  let monotonicNanoseconds: Int64

  enum CodingKeys: String, CodingKey {
    case monotonicNanoseconds = "monotonic_ns"
  }
}

/// `CLOCK_MONOTONIC`, the clock Python's `time.monotonic_ns()` reads on Linux.
private func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// `scripts/sse_server.py` as a child process; it prints its port and exits with its parent.
private final class EventServer {
  let port: Int
  private let process: Process

  private init(port: Int, process: Process) {
    self.port = port
    self.process = process
  }

  static func start(python: String, script: String) throws -> EventServer {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, "127.0.0.1"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Read the first line ("LISTENING host port") off this thread, giving up after 15 s.
    let firstLine = ResultLine()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var bytes = Data()
      while !bytes.contains(UInt8(ascii: "\n")) {
        let more = output.fileHandleForReading.availableData
        if more.isEmpty { break }
        bytes.append(more)
      }
      firstLine.set(String(decoding: bytes, as: UTF8.self))
      done.signal()
    }
    let words =
      done.wait(timeout: .now() + 15) == .success
      ? firstLine.text.split(separator: "\n").first?.split(separator: " ") ?? [] : []
    guard words.count == 3, words[0] == "LISTENING", let port = Int(words[2]) else {
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
      }
      throw BenchmarkError("scripts/sse_server.py did not start")
    }
    return EventServer(port: port, process: process)
  }

  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}

private final class ResultLine: @unchecked Sendable {
  private let lock = NSLock()
  private var value = ""

  func set(_ text: String) { lock.withLock { value = text } }
  var text: String { lock.withLock { value } }
}
